"""Graph walks shared by the resolver, the IR and lowering: loops, never recursions, so
a walk over imports or struct nesting has no depth limit (Python's recursion limit
ended a chain of 1,000 imports; issue 37)."""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterable, Iterator, List, Tuple


def components(nodes: List, succ: Dict) -> Tuple[Dict, List[List]]:
    """Strongly connected components (Tarjan's algorithm, as a loop: no recursion, so
    any depth of nesting is fine). Returns each node's component number and the members
    of each component, numbered sinks first (a component's successors come before it)."""
    index: Dict = {}
    low: Dict = {}
    on_stack = set()
    stack: List = []
    component: Dict = {}
    members: List[List] = []
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(succ[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for nxt in children:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(succ[nxt])))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component[member] = len(members)
                    group.append(member)
                    if member == node:
                        break
                members.append(group)
    return component, members


def postorder(roots: Iterable, succ: Callable[[Any], Iterable]) -> List:
    """Every node reachable from `roots`, depth-first, each after its successors and
    once (as the usual recursive walk that marks a node on entry would list them)."""
    seen = set()
    out: List = []
    for root in roots:
        if root in seen:
            continue
        seen.add(root)
        work: List[Tuple[Any, Iterator]] = [(root, iter(succ(root)))]
        while work:
            node, children = work[-1]
            for nxt in children:
                if nxt not in seen:
                    seen.add(nxt)
                    work.append((nxt, iter(succ(nxt))))
                    break
            else:
                work.pop()
                out.append(node)
    return out
