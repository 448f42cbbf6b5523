#!/usr/bin/env python3
"""Play one round at a live table with nothing but the ``websockets`` package.

    pip install websockets
    python docs/examples/play_round.py http://127.0.0.1:8000 dealer demo1234 1

Signs in with a username and password (a Django session cookie), connects to the table's
socket, then shuffles if needed, opens a round, bets 100 on box 1, deals the cards given
below, stands and confirms the settlement. Every screen of the table sees it happen.
The protocol is described in docs/protocol.md.
"""

import http.cookiejar
import json
import re
import sys
import urllib.parse
import urllib.request
import uuid

from websockets.sync.client import connect

LIVE = re.compile(r'<section id="table-live"[^>]*>')
ATTR = re.compile(r'data-([a-z]+)="([^"]*)"')
ANSWER = re.compile(r'<div id="table-error"[^>]*>([^<]*)<')


def sign_in(base: str, username: str, password: str) -> str:
    """Return the Cookie header of a signed-in session."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(f"{base}/staff/login/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    form = urllib.parse.urlencode(
        {"username": username, "password": password, "csrfmiddlewaretoken": token}
    ).encode()
    request = urllib.request.Request(
        f"{base}/staff/login/", data=form, headers={"Referer": f"{base}/staff/login/"}
    )
    opener.open(request)
    cookies = {c.name: c.value for c in jar}
    if "sessionid" not in cookies:
        raise SystemExit("sign-in refused")
    return "; ".join(f"{k}={v}" for k, v in cookies.items())


class Screen:
    """A connection to one table that keeps the newest state it was sent (by its sequence)."""

    def __init__(self, socket):
        self.socket = socket
        self.state = {"seq": "-1"}
        while "version" not in self.state:  # the full state comes first
            self.read()

    def read(self) -> dict | None:
        """Read one message: keep a newer table fragment; return an answer to a command."""
        message = self.socket.recv(timeout=10)
        live = LIVE.search(message)
        if live:
            state = dict(ATTR.findall(live.group(0)))
            if int(state["seq"]) > int(self.state["seq"]):  # an older one is dropped
                self.state = state
        answer = ANSWER.search(message)
        if answer:
            return {**dict(ATTR.findall(answer.group(0))), "text": answer.group(1)}
        return None

    def send(self, action: str, **fields) -> None:
        """Send one command and wait for its answer (``data-ack``: its id); then for the
        fragment with the round version the answer says it made."""
        command = {
            "id": str(uuid.uuid4()),
            "expected_version": int(self.state["version"]),
            "action": action,
            **fields,
        }
        self.socket.send(json.dumps(command))
        answer = None
        while answer is None or answer.get("ack") != command["id"]:
            answer = self.read()
        if answer["code"]:
            raise RuntimeError(f"refused: {answer['code']}: {answer['text']}")
        while int(self.state["version"]) < int(answer["version"]):
            self.read()

    @property
    def legal(self) -> set[str]:
        return set(self.state.get("legal", "").split())


def main(base: str, username: str, password: str, table_id: str) -> None:
    cookie = sign_in(base, username, password)
    ws_url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}/"
    with connect(ws_url, origin=base, additional_headers={"Cookie": cookie}, proxy=None) as socket:
        screen = Screen(socket)
        if "open-round" not in screen.legal:
            screen.send("shuffle", reason="new_shoe", cards_behind_cut=90)
        screen.send("open-round")
        screen.send("bet", box=1, seat="P1", stake="100")
        # One player with free boxes: he leaves them open to other players.
        # ... and was told the table's limits (he is new at the table).
        screen.send("close-bets", lone_player="shared", limits_announced="told")
        for card in ["Th", "6d", "9c"]:  # box 1: T 9; dealer: 6
            screen.send("card", card=card)
        screen.send("stand")
        for card in ["Ks", "Qd"]:  # the dealer draws to 26: bust
            if screen.state["phase"] != "dealer":
                break
            screen.send("card", card=card)
        print("phase:", screen.state["phase"])
        screen.send("confirm-settlement")
        print("round", screen.state["round"], "closed at version", screen.state["version"])


if __name__ == "__main__":
    main(*sys.argv[1:5])
