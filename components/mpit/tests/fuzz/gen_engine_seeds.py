#!/usr/bin/env python3
"""Writes the seed inputs of fuzz_engine (corpus_engine/) in its input format:
MPIs shaped like MPICH 4.0.2 and Open MPI's ob1 spellings, with short event
streams. Indices are those of the name pools fuzz_engine builds from the rule
table (event names with "", "ompi." and "ompi_" prefixes, element names); if
the table changes, the seeds still parse, they only steer less well."""
import os
import sys

EV = {  # pool index of an event name
    "unexp_message_enqueued": 0, "unexp_message_dequeued": 3,
    "ompi.pml_ob1_unexpected_insert": 7, "ompi.pml_ob1_unexpected_match": 13,
    "ompi_pml_ob1_unex_insert": 11, "ompi_pml_ob1_unex_remove": 17,
    "ompi.pml_ob1_posted_insert": 19, "ompi.pml_ob1_posted_remove": 22,
    "ompi.pml_ob1_search_posted_begin": 25, "ompi.pml_ob1_search_posted_end": 28,
    "ompi_pml_ob1_search_posted_begin": 26, "ompi_pml_ob1_search_posted_end": 29,
    "ompi.pml_ob1_search_unexpected_begin": 31, "ompi.pml_ob1_search_unexpected_end": 34,
    "ompi.pml_ob1_message_arrived": 37, "ompi.pml_ob1_transfer_begin": 43,
    "ompi.pml_ob1_transfer_end": 46, "ompi.pml_ob1_immediate_send": 49,
}
EL = {"frag": 0, "request": 2, "context_id": 5, "source": 9, "sequence": 13,
      "tag": 17, "length": 18, "peer": 12}


def element(name, unsigned=False):
    """two bytes: low nibble 15 = unnamed, bits 4-5 the kind; pool index"""
    k = 1 if unsigned else 0
    return [(k << 4) | (15 if name is None else 0), 0 if name is None else EL[name]]


def mpi(events, slots=2):  # slots: index into 1, 2, 8, 32, 64
    """events: [(name, [elements])]; element: name, None, or (name, True) unsigned"""
    out = [len(events) - 1, slots, 1]     # t0 = first timestamp
    for name, els in events:
        out += [0, EV[name], len(els)]
        for el in els:
            out += element(*el) if isinstance(el, tuple) else element(el)
    return out


def ev(i, *vals, dt=5):
    """dispatch event i after dt ns with these element values (0..5)"""
    return [0, i, dt, 3 | len(vals) << 2] + list(vals)


CHECK = [14, 1]  # check invariants at the current time
RESET = [15, 0, 1, 1]

SEEDS = {
    "mpich_recvq": mpi([("unexp_message_enqueued", [None, None]),
                        ("unexp_message_dequeued", [None, None])])
    + ev(1) + ev(0, 1, 0) + ev(0, 2, 0) + ev(1) + CHECK + ev(1) + ev(1) + CHECK + RESET + ev(0, 1, 0) + CHECK,
    "ob1_queues": mpi([("ompi.pml_ob1_unexpected_insert", [("frag", True), "source", "tag", "context_id", "sequence"]),
                       ("ompi.pml_ob1_unexpected_match", [("request", True), ("frag", True)]),
                       ("ompi.pml_ob1_search_unexpected_begin", [("request", True)]),
                       ("ompi.pml_ob1_search_unexpected_end", [("request", True)]),
                       ("ompi.pml_ob1_message_arrived", ["source", "tag", "context_id", "sequence"]),
                       ("ompi.pml_ob1_immediate_send", ["peer", "tag", "length"])])
    + ev(4, 1, 0, 0, 0) + ev(4, 1, 0, 0, 2) + ev(4, 1, 0, 0, 1) + ev(0, 3, 1, 0, 0, 0)
    + ev(2, 4) + ev(3, 4) + ev(1, 4, 3) + ev(1, 4, 3) + ev(5, 1, 0, 5) + CHECK,
    "ob1_posted": mpi([("ompi.pml_ob1_posted_insert", [("request", True)]),
                       ("ompi.pml_ob1_posted_remove", [("request", True)]),
                       ("ompi.pml_ob1_search_posted_begin", ["context_id", "source", "sequence"]),
                       ("ompi.pml_ob1_search_posted_end", ["context_id", "source", "sequence"]),
                       ("ompi.pml_ob1_transfer_begin", [("request", True)]),
                       ("ompi.pml_ob1_transfer_end", [("request", True), "length"])], slots=3)
    + ev(0, 1) + ev(0, 2) + ev(2, 0, 1, 1) + ev(3, 0, 1, 1) + ev(1, 2) + ev(1, 1) + ev(1, 1)
    + ev(4, 3) + ev(5, 3, 5) + ev(5, 3, 4) + CHECK,
    "ob1_prototype": mpi([("ompi_pml_ob1_unex_insert", []), ("ompi_pml_ob1_unex_remove", []),
                          ("ompi_pml_ob1_search_posted_begin", ["source", "tag"]),
                          ("ompi_pml_ob1_search_posted_end", ["source", "tag"])])
    + ev(0) + ev(0) + ev(1) + ev(2, 1, 2) + ev(3, 1, 2, dt=40) + ev(1) + ev(1) + CHECK,
}

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus_engine")
os.makedirs(out, exist_ok=True)
for name, data in SEEDS.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(bytes(data))
