"""The advantage-play and deviation detectors (``game.detection``) measured on simulated play:
``python -m benchmarks.detection bench|deviation|link|rules`` (docs/detection.md)."""
