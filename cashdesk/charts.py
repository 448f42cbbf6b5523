"""Server-rendered SVG bar charts (no JavaScript, print as they are)."""

from decimal import Decimal

from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

COLOURS = ["#2e7d32", "#1565c0", "#ef6c00"]


def bars_chart(labels: list[str], series: list[tuple[str, list]], *, title: str) -> str:
    """Grouped bars: one group per label, one bar per series; negative values go down."""
    width, height, pad = max(320, 28 * len(labels) * max(1, len(series))), 220, 30
    values = [Decimal(v) for _name, vs in series for v in vs] or [Decimal(0)]
    top = max(max(values), Decimal(0))
    bottom = min(min(values), Decimal(0))
    span = (top - bottom) or Decimal(1)
    plot = height - 2 * pad
    zero_y = pad + float(top / span) * plot
    group = (width - 2 * pad) / max(1, len(labels))
    bar = group / (len(series) + 1)
    parts = []
    for i, label in enumerate(labels):
        x0 = pad + i * group
        for j, (_name, vs) in enumerate(series):
            v = Decimal(vs[i])
            h = float(abs(v) / span) * plot
            y = zero_y - h if v >= 0 else zero_y
            parts.append(
                format_html(
                    '<rect x="{}" y="{}" width="{}" height="{}" fill="{}">'
                    "<title>{}: {}</title></rect>",
                    _n(x0 + j * bar),
                    _n(y),
                    _n(bar),
                    _n(h),
                    COLOURS[j % len(COLOURS)],
                    label,
                    v,
                )
            )
        parts.append(
            format_html(
                '<text x="{}" y="{}" font-size="9" text-anchor="middle">{}</text>',
                _n(x0 + group / 2),
                height - 8,
                label,
            )
        )
    legend = format_html_join(
        "",
        '<text x="{}" y="14" font-size="11" fill="{}">{}</text>',
        ((pad + 160 * j, COLOURS[j % len(COLOURS)], name) for j, (name, _vs) in enumerate(series)),
    )
    return format_html(
        '<svg class="chart" role="img" aria-label="{}" viewBox="0 0 {} {}" width="100%" '
        'xmlns="http://www.w3.org/2000/svg">{}<line x1="{}" x2="{}" y1="{}" y2="{}" '
        'stroke="#555"/>{}</svg>',
        title,
        width,
        height,
        legend,
        pad,
        width - pad,
        _n(zero_y),
        _n(zero_y),
        mark_safe("".join(parts)),  # noqa: S308 — each part built by format_html
    )


def _n(value: float) -> str:
    """A coordinate (layout only: the money in the titles stays Decimal)."""
    return f"{value:.1f}"
