#!/usr/bin/env python3
"""Makes papi-mpit-report's call-site wrappers from utils/sites/mpi-calls.tsv.

    gen-wrappers.py TABLE OUT.c OUT-names.h

OUT.c has one wrapper per row: it times the call, charges it to the caller's
site (site_table.h; sites_capture finds the program's line behind a library) and hands the row's roles (count, datatype, peer, ...) to
the helpers of its kind; the call itself is made through the PMPI_ name only.
OUT-names.h has the names by index (SITES_FN_*), for the records.  The same
output serves every MPI family: it is compiled against each family's mpi.h,
and rows newer than the library (since > MPI_VERSION) or for MPI-IO where the
library has none are left out by the preprocessor.
"""
import re
import sys

# What each kind does around the PMPI_ call: code before, after (on
# MPI_SUCCESS), and the roles it needs.  $role stands for the parameter with
# that role.  "st" is the status the wrapper reads (the caller's, or its own
# when the caller passed MPI_STATUS_IGNORE).
KINDS = {
    "send": ("", "sites_send(&c, $count, $type, $peer, $comm);", ["count", "type", "peer", "comm"]),
    "recv": ("STATUS_OWN($status);", "sites_recv(&c, st, $comm);", ["status", "comm"]),
    "isend": ("", "sites_send(&c, $count, $type, $peer, $comm); sites_forget(*$req);",
              ["count", "type", "peer", "comm", "req"]),
    "irecv": ("", "sites_track_recv(&c, *$req, $comm, $peer, $tag);", ["req", "comm", "peer", "tag"]),
    "psend": ("", "sites_track_psend(&c, *$req, $count, $type, $peer, $comm);",
              ["count", "type", "peer", "comm", "req"]),
    "precv": ("", "sites_track_precv(&c, *$req, $comm, $peer, $tag);", ["req", "comm", "peer", "tag"]),
    "sendrecv": ("STATUS_OWN($status);",
                 "sites_send(&c, $scount, $stype, $speer, $comm); sites_recv(&c, st, $comm);",
                 ["scount", "stype", "speer", "comm", "status"]),
    "isendrecv": ("", "sites_send(&c, $scount, $stype, $speer, $comm); sites_track_recv(&c, *$req, $comm, $rpeer, $rtag);",
                  ["scount", "stype", "speer", "comm", "req", "rpeer", "rtag"]),
    "probe": ("", "", []),
    "mprobe": ("", "sites_track_message(*$message, $comm);", ["message", "comm"]),
    "mrecv": ("STATUS_OWN($status); MPI_Comm mcomm = sites_message_comm(*$message);",
              "sites_recv(&c, st, mcomm);", ["message", "status"]),
    "imrecv": ("MPI_Comm mcomm = sites_message_comm(*$message);",
               "sites_track_recv(&c, *$req, mcomm, MPI_ANY_SOURCE, MPI_ANY_TAG);",
               ["message", "req"]),
    "start": ("", "sites_started(*$req);", ["req"]),
    "startall": ("", "for (int i = 0; i < $n; i++) sites_started($reqs[i]);", ["n", "reqs"]),
    "wait": ("STATUS_OWN($status); uintptr_t key = sites_key(*$req);",
             "sites_completed(key, st);", ["req", "status"]),
    "test": ("STATUS_OWN($status); uintptr_t key = sites_key(*$req);",
             "if (*$flag) sites_completed(key, st);", ["req", "flag", "status"]),
    "waitall": ("sites_batch_t b; MPI_Status *sts = sites_batch_begin(&b, $reqs, $n, $statuses);",
                "sites_batch_all(&b, sts);", ["n", "reqs", "statuses"]),
    "testall": ("sites_batch_t b; MPI_Status *sts = sites_batch_begin(&b, $reqs, $n, $statuses);",
                "if (*$flag) sites_batch_all(&b, sts);", ["n", "reqs", "flag", "statuses"]),
    "waitany": ("STATUS_OWN($status); sites_batch_t b; sites_batch_begin(&b, $reqs, $n, MPI_STATUSES_IGNORE);",
                "sites_batch_one(&b, *$index, st);", ["n", "reqs", "index", "status"]),
    "testany": ("STATUS_OWN($status); sites_batch_t b; sites_batch_begin(&b, $reqs, $n, MPI_STATUSES_IGNORE);",
                "if (*$flag) sites_batch_one(&b, *$index, st);", ["n", "reqs", "index", "flag", "status"]),
    "waitsome": ("sites_batch_t b; MPI_Status *sts = sites_batch_begin(&b, $reqs, $n, $statuses);",
                 "sites_batch_some(&b, *$outcount, $indices, sts);",
                 ["n", "reqs", "outcount", "indices", "statuses"]),
    "free": ("", "", ["req"]),  # the request is forgotten before the call (below)
    "coll": ("", None, ["comm"]),
    "rma": ("", "sites_rma(&c, $count, $type, $target, $win);", ["count", "type", "target", "win"]),
    "sync": ("", "", []),
    "ioread": ("", "sites_io(&c, $count, $type, 0);", ["count", "type"]),
    "iowrite": ("", "sites_io(&c, $count, $type, 1);", ["count", "type"]),
}

# A collective whose send side counts at its root only.
ROOT_SENDS = re.compile(r"^MPI_I?(Bcast|Scatterv?)(_init)?$")


def parse(path):
    rows = []
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        if len(f) != 4:
            sys.exit(f"{path}:{n}: expected 4 tab-separated fields")
        kind, name, since, params = f
        if kind not in KINDS:
            sys.exit(f"{path}:{n}: unknown kind {kind}")
        plist = []
        for p in params.split(","):
            p = p.strip()
            decl, _, role = p.partition("@")
            m = re.match(r"^(.*?)([A-Za-z_][A-Za-z0-9_]*)(\[\])?$", decl.strip())
            if not m:
                sys.exit(f"{path}:{n}: cannot read parameter '{p}'")
            plist.append({"decl": decl.strip(), "name": m.group(2), "role": role})
        roles = {p["role"]: p["name"] for p in plist if p["role"]}
        for r in KINDS[kind][2]:
            if r not in roles:
                sys.exit(f"{path}:{n}: {name} ({kind}) needs a parameter with role {r}")
        rows.append({"kind": kind, "name": name, "since": int(since), "params": plist, "roles": roles})
    return rows


def subst(code, roles):
    return re.sub(r"\$([a-z]+)", lambda m: roles[m.group(1)], code)


def coll_after(row):
    """The collective's payload (bytes this rank puts in) and root."""
    r = row["roles"]
    sendbuf = row["params"][0]["name"]
    root = r.get("root", "-1")
    if "types" in r:  # w: per-rank counts and datatypes
        payload = f"sites_payload_w({r['counts']}, {r['types']}, {r['comm']})"
    elif "counts" in r:  # v: per-rank counts of one datatype
        payload = f"sites_payload_v({r['counts']}, {r['type']}, {r['comm']})"
    elif "count" in r:
        payload = f"sites_payload({r['count']}, {r['type']})"
    else:
        payload = "0"
    # MPI_IN_PLACE: the send side's count and datatype are not used
    if "count" in r and r["count"].startswith("send") or "counts" in r and r["counts"].startswith("send"):
        payload = f"({sendbuf} == MPI_IN_PLACE ? 0 : {payload})"
    # read only at the root: elsewhere these arguments may be anything
    if ROOT_SENDS.match(row["name"]):
        payload = f"(sites_is_root({root}, {r['comm']}) ? {payload} : 0)"
    return f"sites_coll(&c, {payload}, {root}, {r['comm']});"


def wrapper(row, idx):
    kind, name = row["kind"], row["name"]
    before, after, _ = KINDS[kind]
    roles = row["roles"]
    if after is None:
        after = coll_after(row)
    proto = ", ".join(p["decl"] for p in row["params"])
    args = ", ".join(p["name"] for p in row["params"])
    call_args = args
    # the status the wrapper reads replaces an ignored one
    if "STATUS_OWN" in before:
        call_args = ", ".join("st" if p["role"] == "status" else p["name"] for p in row["params"])
    if kind in ("waitall", "testall", "waitsome"):
        call_args = ", ".join("sts" if p["role"] == "statuses" else p["name"] for p in row["params"])
    before = subst(before, roles).replace("STATUS_OWN(", "MPI_Status own_st, *st = sites_status(&own_st, ")
    after = subst(after, roles)
    lines = [f"int {name}({proto})", "{", "    sites_call_t c;"]
    if kind == "free":
        lines.append(f"    sites_forget(*{roles['req']});")
    lines += [
        f"    if (!sites_enter(&c, {idx}, __builtin_return_address(0))) return P{name}({args});",
        "    sites_capture(&c);",
    ]
    lines.append("    " + mark(row))
    if before:
        lines.append(f"    {before}")
    lines.append(f"    int rc = P{name}({call_args});")
    if after:
        lines.append(f"    if (rc == MPI_SUCCESS) {{ {after} }}")
    if "sites_batch_t" in before:
        lines.append("    sites_batch_end(&b);")
    lines += ["    sites_leave(&c);", "    return rc;", "}"]
    return "\n".join(lines)


def mark(row):
    """What the call waits for, for a snapshot: peer (or root), tag, communicator;
    the wait family names the first tracked request's (sites_mark_requests)."""
    r = row["roles"]
    if row["kind"] in ("wait", "test"):
        return f"sites_mark_requests(&c, {r['req']}, 1);"
    if "reqs" in r and row["kind"] != "startall":
        return f"sites_mark_requests(&c, {r['reqs']}, {r['n']});"
    peer = r.get("rpeer", r.get("peer", r.get("root", "MPI_PROC_NULL")))
    tag = r.get("rtag", r.get("tag", "SITES_NO_TAG"))
    comm = r.get("comm", "MPI_COMM_NULL")
    return f"sites_mark(&c, {peer}, {tag}, {comm});"


def guard(row):
    g = []
    if row["since"] > 3:
        g.append(f"MPI_VERSION >= {row['since']}")
    if row["kind"] in ("ioread", "iowrite"):
        g.append("defined(MPI_FILE_NULL)")
    return " && ".join(g)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: gen-wrappers.py TABLE OUT.c OUT-names.h")
    rows = parse(sys.argv[1])
    head = "/* Made by utils/sites/gen-wrappers.py from utils/sites/mpi-calls.tsv: do not edit. */\n"
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        out.write(head)
        out.write("#include <mpi.h>\n\n#include <stdint.h>\n\n#include \"report_handles.h\"\n#include \"site_table.h\"\n\n")
        for i, row in enumerate(rows):
            g = guard(row)
            if g:
                out.write(f"#if {g}\n")
            out.write(wrapper(row, i) + "\n")
            if g:
                out.write("#endif\n")
            out.write("\n")
    with open(sys.argv[3], "w", encoding="utf-8") as out:
        out.write(head)
        out.write("#ifndef PAPI_MPIT_SITES_NAMES_H\n#define PAPI_MPIT_SITES_NAMES_H\n\n")
        out.write(f"#define SITES_NFN {len(rows)}\n")
        out.write("/* name, kind (mpi-calls.tsv) of each wrapped call, by its index */\n")
        out.write("static const struct { const char *name, *kind; } sites_fn[SITES_NFN] = {\n")
        for row in rows:
            out.write(f"    {{\"{row['name']}\", \"{row['kind']}\"}},\n")
        out.write("};\n\n#endif\n")


main()
