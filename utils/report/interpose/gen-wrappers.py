#!/usr/bin/env python3
"""Makes papi-mpit-report's call-site wrappers from utils/report/interpose/mpi-calls.tsv.

    gen-wrappers.py TABLE OUT.c OUT-names.h

OUT.c has one wrapper per row: it times the call, charges it to the caller's
site (site_table.h; sites_capture finds the program's line behind a library) and hands the row's roles (count, datatype, peer, ...) to
the helpers of its kind; the call itself is made through the PMPI_ name only.
Then, for each row, the Fortran entry points in five spellings (mpi_send_,
mpi_send__, mpi_send, MPI_SEND, mpi_send_f08_; site_fortran.h): the same
accounting on the C handles PMPI_*_f2c gives, the call made through the
MPI's own Fortran entry below (pmpi_send_ ...).
OUT-names.h has the names by index (SITES_FN_*), for the records.  The same
output serves every MPI family: it is compiled against each family's mpi.h,
rows for MPI-IO where the library has none are left out by the preprocessor,
and the Fortran entry points where the header has no Fortran ABI (the
standard ABI's).  A row newer than the header (since > MPI_VERSION) is kept,
its PMPI_ entry declared weak: the interposer built on one release's mpi.h
serves the family's later ones (Open MPI 4.1's header reports MPI 3.1, while
5.0's and 6.0's libraries have MPI 4.0's calls).
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
    # communicators made and freed: kept for the snapshots (site_comms.h),
    # whether or not the call is counted (ALWAYS below)
    "comm": ("", "sites_comm_made(*$newcomm);", ["newcomm"]),
    "comm_free": ("sites_comm_freed(*$freed);", "", ["freed"]),
    # datatypes made, committed and freed (and MPI_Comm_idup): timed only
    "timed": ("", "", []),
}
# Kinds whose before and after run also when the call is not counted (the
# window closed, or the sites off), but only in the outermost wrapper: the
# MPI's own calls below it are its (sites_depth is held for them).
ALWAYS = ("comm", "comm_free")

# A collective whose send side counts at its root only (the nonblocking
# MPI_Ibcast, MPI_Iscatter and MPI_Iscatterv included, and the large-count
# forms).
ROOT_SENDS = re.compile(r"^MPI_(Bcast|Scatterv?|Ibcast|Iscatterv?)(_init)?(_c)?$")


def parse(path):
    rows = []
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        if len(f) != 4:
            sys.exit(f"{path}:{n}: expected 4 tab-separated fields")
        kind, name, since, params = f
        name, _, flags = name.partition("@")
        if flags not in ("", "c"):
            sys.exit(f"{path}:{n}: unknown annotation @{flags} of {name}")
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
        rows.append({"kind": kind, "name": name, "since": int(since), "params": plist, "roles": roles,
                     "large": False, "has_c": flags == "c"})
    # the large-count variants after every row: the rows' indices stay as they were
    return rows + [large_count(r) for r in rows if r["has_c"]]


def large_count(row):
    """The MPI 4.0 large-count variant of a row marked @c (MPI_Send_c): each
    int count (a parameter named *count, or an array named *counts) an
    MPI_Count, each int array of displacements (*displs) MPI_Aint."""
    params = []
    for p in row["params"]:
        decl, pname = p["decl"], p["name"]
        if re.match(r"^int\s", decl) and pname.endswith("count") and p["role"] not in ("n", "outcount"):
            decl = f"MPI_Count {pname}"
        elif re.match(r"^const int\s", decl) and decl.endswith("[]"):
            if pname.endswith("counts"):
                decl = f"const MPI_Count {pname}[]"
            elif pname.endswith("displs"):
                decl = f"const MPI_Aint {pname}[]"
        params.append(dict(p, decl=decl))
    return dict(row, name=row["name"] + "_c", since=max(row["since"], 4), params=params, large=True, has_c=False)


def subst(code, roles):
    return re.sub(r"\$([a-z]+)", lambda m: roles[m.group(1)], code)


def coll_after(row, fortran=False):
    """The collective's payload (bytes this rank puts in) and root, with
    $role for the arguments (subst makes them C's or Fortran's)."""
    r = row["roles"]
    sendbuf = row["params"][0]["name"]
    root = "$root" if "root" in r else "-1"
    # the large-count variants' counts are MPI_Count arrays
    c = "c" if row["large"] else ""
    if "types" in r:  # w: per-rank counts and datatypes
        w = "sites_f_payload_w" if fortran else f"sites_payload_w{c}"
        payload = f"{w}($counts, $types, $comm)"
    elif "counts" in r:  # v: per-rank counts of one datatype
        payload = f"sites_payload_v{c}($counts, $type, $comm)"
    elif "count" in r:
        payload = "sites_payload($count, $type)"
    else:
        payload = "0"
    # MPI_IN_PLACE: the send side's count and datatype are not used
    if "count" in r and r["count"].startswith("send") or "counts" in r and r["counts"].startswith("send"):
        in_place = f"sites_f_in_place(sp, {sendbuf})" if fortran else f"{sendbuf} == MPI_IN_PLACE"
        payload = f"({in_place} ? 0 : {payload})"
    # read only at the root: elsewhere these arguments may be anything
    if ROOT_SENDS.match(row["name"]):
        payload = f"(sites_is_root({root}, $comm) ? {payload} : 0)"
    return f"sites_coll(&c, {payload}, {root}, $comm);"


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
    lines = []
    if row["since"] > 3:
        # an mpi.h older than the call: the interposer built on it also
        # serves the family's newer libraries (Open MPI 5.0 and 6.0 run
        # with the one built on 4.1's header), which have it; the PMPI_
        # entry is declared weak, so a library without it still loads
        lines += [f"#if MPI_VERSION < {row['since']}",
                  f"int P{name}({proto}) __attribute__((weak));",
                  f"int {name}({proto});",
                  "#endif"]
    lines += [f"int {name}({proto})", "{", "    sites_call_t c;"]
    if row["since"] > 3:
        # the weak reference is null where the interposer was loaded before
        # the MPI (mpi4py loads it later, privately): the entry is then
        # looked up in the process once, and the body calls it through a
        # pointer (P{name} names it until the end of the function)
        lines += [f"#if MPI_VERSION < {row['since']}",
                  f"    static int (*next)({proto});",
                  f"    int (*P{name}_p)({proto}) = P{name} ? P{name} : __atomic_load_n(&next, __ATOMIC_ACQUIRE);",
                  f"    if (!P{name}_p) {{",
                  f"        P{name}_p = (int (*)({proto}))dlsym(RTLD_DEFAULT, \"P{name}\");",
                  f"        __atomic_store_n(&next, P{name}_p, __ATOMIC_RELEASE);",
                  "    }",
                  f"    if (!P{name}_p) return MPI_ERR_INTERN; /* a library without the call */",
                  f"#define P{name} P{name}_p",
                  "#endif"]
    if kind == "free":
        lines.append(f"    sites_forget(*{roles['req']});")
    if kind in ALWAYS:
        lines += [
            f"    if (!sites_enter(&c, {idx}, __builtin_return_address(0))) {{",
            f"        if (sites_depth) return P{name}({args});",
            "        sites_depth = 1; /* not counted, yet the MPI's own calls below are this one's */",
        ]
        if before:
            lines.append(f"        {before}")
        lines += [f"        int rc = P{name}({call_args});", "        sites_depth = 0;"]
        if after:
            lines.append(f"        if (rc == MPI_SUCCESS) {{ {after} }}")
        lines += ["        return rc;", "    }"]
    else:
        lines.append(f"    if (!sites_enter(&c, {idx}, __builtin_return_address(0))) return P{name}({args});")
    lines.append("    sites_capture(&c);")
    lines.append("    " + mark(row))
    if before:
        lines.append(f"    {before}")
    lines.append(f"    int rc = P{name}({call_args});")
    if after:
        lines.append(f"    if (rc == MPI_SUCCESS) {{ {after} }}")
    if "sites_batch_t" in before:
        lines.append("    sites_batch_end(&b);")
    lines += ["    sites_leave(&c);", "    return rc;", "}"]
    if row["since"] > 3:
        lines += [f"#if MPI_VERSION < {row['since']}", f"#undef P{name}", "#endif"]
    return "\n".join(lines)


# ---- Fortran entry points (site_fortran.h): every row in the five spellings
# of the Fortran bindings, each calling the MPI's own Fortran entry below it,
# and a call with a buffer in a sixth: Open MPI 6.0's mpi_f08 passes the
# buffer as a TS 29113 descriptor to mpi_send_f08ts_ (passed on untouched).
F_SPELLINGS = [("SITES_F_US", "{l}_"), ("SITES_F_US2", "{l}__"), ("SITES_F_PLAIN", "{l}"),
               ("SITES_F_UPPER", "{u}"), ("SITES_F_F08", "{l}_f08_"), ("SITES_F_F08TS", "{l}_f08ts_")]
F_HANDLES = {"MPI_Datatype": "Type", "MPI_Comm": "Comm", "MPI_Win": "Win"}
F_INTS = ("count", "scount", "peer", "speer", "rpeer", "tag", "rtag", "root", "target", "n")
# the request is the MPI's before the call (converted then), else made by it
F_REQ_IN = ("start", "wait", "test", "free")


def ftype(decl):
    """The C type of a Fortran argument (all by reference)."""
    if "void" in decl:
        return "void *"
    for t in ("MPI_Aint", "MPI_Offset"):
        if t in decl:
            return t + " *"
    return "MPI_Fint *"


def fwrapper(row, idx):
    kind, name = row["kind"], row["name"]
    params, roles = row["params"], row["roles"]
    before, after, _ = KINDS[kind]
    if after is None:
        after = coll_after(row, fortran=True)
    by_name = {p["name"]: p for p in params}
    # what $role stands for on the Fortran side
    fmap, locals_ = {}, []
    for role, pname in roles.items():
        decl = by_name[pname]["decl"]
        handle = next((h for h in F_HANDLES if decl.startswith(h)), None)
        if role in F_INTS or role in ("flag", "index", "outcount"):
            fmap[role] = f"(int)*{pname}"
        elif role in ("newcomm", "freed"):  # made by the call, or freed by it: converted when needed
            fmap[role] = f"PMPI_Comm_f2c(*{pname})"
        elif handle:
            fmap[role] = f"c_{pname}"
            locals_.append((f"c_{pname}", f"{handle} c_{pname} = PMPI_{F_HANDLES[handle]}_f2c(*{pname});"))
        elif role == "req":
            if kind in F_REQ_IN:
                fmap[role] = f"c_{pname}"
                locals_.append((f"c_{pname}", f"MPI_Request c_{pname} = PMPI_Request_f2c(*{pname});"))
            else:
                fmap[role] = f"PMPI_Request_f2c(*{pname})"
        elif role == "message":
            fmap[role] = f"PMPI_Message_f2c(*{pname})"
        else:  # counts, types, reqs, statuses, indices, status: arrays as they are
            fmap[role] = pname
    call = [p["name"] for p in params]
    batch = kind in ("waitall", "testall", "waitany", "testany", "waitsome")
    ending = ""
    if batch:
        reqs, n = roles["reqs"], fmap["n"]
        if kind in ("waitany", "testany"):
            before = (f"MPI_Fint own_fst[SITES_F_STATUS] = {{0}}, *fst = sites_f_status(own_fst, {roles['status']}); "
                      f"sites_f_batch_t fb; sites_f_batch_begin(&fb, {reqs}, {n}, NULL);")
            after = f"sites_f_batch_one(&fb, (int)*{roles['index']}, fst);"
            call = ["fst" if p["role"] == "status" else p["name"] for p in params]
        else:
            before = f"sites_f_batch_t fb; MPI_Fint *fsts = sites_f_batch_begin(&fb, {reqs}, {n}, {roles['statuses']});"
            if kind == "waitsome":
                after = f"sites_f_batch_some(&fb, (int)*{roles['outcount']}, {roles['indices']}, fsts);"
            else:
                after = "sites_f_batch_all(&fb, fsts);"
            call = ["fsts" if p["role"] == "statuses" else p["name"] for p in params]
        if "flag" in roles:
            after = f"if (*{roles['flag']}) {{ {after} }}"
        mark = f"sites_mark_requests(&c, fb.creq, {n});"
        ending = "sites_f_batch_end(&fb);"
    else:
        if "STATUS_OWN" in before:
            st = roles.get("status")
            before = before.replace("STATUS_OWN($status);",
                                    f"MPI_Fint own_fst[SITES_F_STATUS] = {{0}}, *fst = sites_f_status(own_fst, {st}); "
                                    "MPI_Status own_st, *st = &own_st;")
            after = "sites_f_status_c(fst, st); " + after
            call = ["fst" if p["role"] == "status" else p["name"] for p in params]
        if kind == "startall":
            after = f"for (int i = 0; i < {fmap['n']}; i++) sites_started(PMPI_Request_f2c({roles['reqs']}[i]));"
        elif kind == "wait" or kind == "test":
            before = before.replace("sites_key(*$req)", f"sites_key(c_{roles['req']})")
        mark = fmark(row, fmap)
    for a, b in (("*$req", "$req"), ("*$message", "$message"), ("*$newcomm", "$newcomm"), ("*$freed", "$freed"), ("*$flag", "*" + roles.get("flag", "")),
                 ("*$index", "$index"), ("*$outcount", "$outcount")):
        before, after = before.replace(a, b), after.replace(a, b)
    before, after = subst(before, fmap), subst(after, fmap)
    if "types" in roles or "counts" in roles:  # Fortran INTEGER arrays (MPI_Fint is int: site_fortran.c)
        after = after.replace(f"sites_payload_v({roles['counts']}", f"sites_payload_v((const int *){roles['counts']}")
    fproto = ", ".join(f"{ftype(p['decl'])}{p['name']}" for p in params) + ", MPI_Fint *ierr"
    ftypes = ", ".join(ftype(p["decl"]).strip() for p in params) + ", MPI_Fint *"
    args = ", ".join(p["name"] for p in params) + ", ierr"
    body = []
    if kind == "free":
        body.append(f"sites_forget(PMPI_Request_f2c(*{roles['req']}));")
    if kind in ALWAYS:
        body.append(f"if (!sites_enter(&c, {idx}, pc)) {{")
        body.append(f"    if (sites_depth) {{ next({args}); return; }}")
        body.append("    sites_depth = 1; /* not counted, yet the MPI's own calls below are this one's */")
        body.append("    MPI_Fint own_rc = MPI_SUCCESS, *rc = ierr ? ierr : &own_rc;")
        if before:
            body.append(f"    {before}")
        body.append(f"    next({', '.join(call)}, rc);")
        body.append("    sites_depth = 0;")
        if after:
            body.append(f"    if (*rc == MPI_SUCCESS) {{ {after} }}")
        body.append("    return;")
        body.append("}")
    else:
        body.append(f"if (!sites_enter(&c, {idx}, pc)) {{ next({args}); return; }}")
    body.append("sites_capture(&c); /* the program's line behind a library (site_frames.h) */")
    body.append("MPI_Fint own_rc = MPI_SUCCESS, *rc = ierr ? ierr : &own_rc; /* mpi_f08: ierror is optional */")
    text = " ".join([before, mark, after])
    # handles the code uses, converted once after the entry
    body += [d for v, d in locals_ if re.search(rf"\b{v}\b", text)]
    if before:
        body.append(before)
    body.append(mark)
    body.append(f"next({', '.join(call)}, rc);")
    if after:
        body.append(f"if (*rc == MPI_SUCCESS) {{ {after} }}")
    if ending:
        body.append(ending)
    body.append("sites_leave(&c);")
    lines = [f"typedef void (*fw_{name}_t)({ftypes});",
             f"static void fw_{name}(int sp, void *pc, {fproto})", "{",
             f"    fw_{name}_t next = (fw_{name}_t)sites_f_next({idx}, sp);",
             f"    if (!next) {{ sites_f_missing({idx}, sp, ierr); return; }}",
             "    sites_call_t c;"]
    lines += ["    " + b for b in body]
    lines.append("}")
    low, up = name.lower(), name.upper()
    for sp, pat in F_SPELLINGS:
        if sp == "SITES_F_F08TS" and not any("void" in p["decl"] for p in params):
            continue
        sym = pat.format(l=low, u=up)
        lines.append(f"void {sym}({fproto});")
        lines.append(f"void {sym}({fproto}) {{ fw_{name}({sp}, __builtin_return_address(0), {args}); }}")
    return "\n".join(lines)


def fmark(row, fmap):
    r = row["roles"]
    if row["kind"] in ("wait", "test"):
        return f"sites_mark_requests(&c, &c_{r['req']}, 1);"
    peer = next((fmap[k] for k in ("rpeer", "peer", "root") if k in r), "MPI_PROC_NULL")
    tag = next((fmap[k] for k in ("rtag", "tag") if k in r), "SITES_NO_TAG")
    comm = fmap.get("comm", "MPI_COMM_NULL")
    return f"sites_mark(&c, {peer}, {tag}, {comm});"


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
    if row["kind"] in ("ioread", "iowrite"):
        g.append("defined(MPI_FILE_NULL)")
    return " && ".join(g)


def emit(out, rows, make, fortran=False):
    """Each row's wrapper made by make, inside its row's #if guard."""
    for i, row in enumerate(rows):
        if fortran and row["large"]:
            continue  # no Fortran entry of its own (mpi-calls.tsv)
        g = guard(row)
        if g:
            out.write(f"#if {g}\n")
        out.write(make(row, i) + "\n")
        if g:
            out.write("#endif\n")
        out.write("\n")


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: gen-wrappers.py TABLE OUT.c OUT-names.h")
    rows = parse(sys.argv[1])
    head = "/* Made by utils/report/interpose/gen-wrappers.py from utils/report/interpose/mpi-calls.tsv: do not edit. */\n"
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        out.write(head)
        out.write("#ifndef _GNU_SOURCE\n#define _GNU_SOURCE /* RTLD_DEFAULT */\n#endif\n#include <mpi.h>\n\n#include <dlfcn.h>\n#include <stdint.h>\n\n#include \"report_handles.h\"\n#include \"site_comms.h\"\n#include \"site_fortran.h\"\n#include \"site_table.h\"\n\n")
        emit(out, rows, wrapper)
        out.write("/* ---- the Fortran entry points (site_fortran.h) */\n#if defined(SITES_F_WRAPPED)\n\n")
        emit(out, rows, fwrapper, fortran=True)
        out.write("#endif\n")
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
