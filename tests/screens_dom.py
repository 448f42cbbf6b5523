"""A screen's DOM as the one client (static/js/feed.js) keeps it, in plain Python: parse the
HTML the server sent, swap a pushed message into it by id as the client does (``morph``:
the element of that id becomes the new one; ``upsert:#target``: each element with an id
inside the message's part becomes its namesake inside the target), and compare two screens
regardless of what the client ignores (the swap instructions, a delta's mark, the render's
clock, whitespace)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
IGNORED = {"hx-swap-oob", "data-delta", "data-now"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str | None] = field(default_factory=dict)
    children: list = field(default_factory=list)  # Node or str
    parent: Node | None = None

    @property
    def id(self) -> str | None:
        return self.attrs.get("id")

    def walk(self):
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.walk()

    def by_id(self, element_id: str) -> Node | None:
        return next((n for n in self.walk() if n.id == element_id), None)

    def outermost_with_ids(self) -> list[Node]:
        """The elements with an id inside this one that are not inside another such."""
        found = []

        def visit(node):
            for child in node.children:
                if isinstance(child, Node):
                    if child.id:
                        found.append(child)
                    else:
                        visit(child)

        visit(self)
        return found

    def replace_with(self, other: Node) -> None:
        siblings = self.parent.children
        siblings[siblings.index(self)] = other
        other.parent = self.parent

    def html(self) -> str:
        """A canonical serialisation: attributes sorted, the ignored ones left out, text with
        its whitespace collapsed."""
        attrs = "".join(
            f' {k}="{v}"' if v is not None else f" {k}"
            for k, v in sorted(self.attrs.items())
            if k not in IGNORED
        )
        if self.tag in VOID:
            return f"<{self.tag}{attrs}>"
        inner = "".join(
            c.html() if isinstance(c, Node) else " ".join(c.split()) for c in self.children
        )
        return f"<{self.tag}{attrs}>{inner}</{self.tag}>"


class _Builder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root")
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), parent=self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Node(tag, dict(attrs), parent=self.current))

    def handle_endtag(self, tag):
        node = self.current
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.current = node.parent

    def handle_data(self, data):
        if data.strip():
            self.current.children.append(data)


def parse(html: str) -> Node:
    """The HTML as a tree under a root node (its top-level elements are its children)."""
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root


def apply(page: Node, message: str) -> list[str]:
    """Swap ``message`` into ``page`` as the client does; returns the ids it found no place
    for (the client then asks for the topic's full state)."""
    missing = []
    for part in [c for c in parse(message).children if isinstance(c, Node)]:
        swap = part.attrs.get("hx-swap-oob") or "true"
        if swap.startswith("upsert:"):
            target = page.by_id(swap.split(":", 1)[1].lstrip("#"))
            for incoming in part.outermost_with_ids():
                old = target.by_id(incoming.id) if target is not None else None
                if old is None:
                    missing.append(incoming.id)
                else:
                    old.replace_with(incoming)
            continue
        old = page.by_id(part.id) if part.id else None
        if old is None:
            missing.append(part.id or part.tag)
        else:
            old.replace_with(part)
    return missing


def canonical(html_or_node) -> str:
    node = parse(html_or_node) if isinstance(html_or_node, str) else html_or_node
    return "".join(c.html() if isinstance(c, Node) else " ".join(c.split()) for c in node.children)
