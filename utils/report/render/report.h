/*
 * papi-mpit-report: the job-wide result and its renderings (table, CSV, JSON,
 * SVG).  No MPI and no PAPI here: the interposer (report_mpi.c) fills a
 * report_job_t on rank 0 from what every rank sent, and these functions only
 * compute statistics and write files, so they are testable on their own.
 */
#ifndef PAPI_MPIT_REPORT_H
#define PAPI_MPIT_REPORT_H

#include <stdio.h>

/* report.json is one jansson document (<jansson.h>'s json_t) */
struct json_t;

#define REPORT_NAME_LEN   256
#define REPORT_UNITS_LEN  64
/* a reason, whole: the component's (papi_mpit_why) are at most 1023
 * characters, and the tool may add a sentence of its own */
#define REPORT_REASON_LEN 2048
#define REPORT_HOST_LEN   64

/* One measured event over all ranks. */
typedef struct report_event {
    char name[REPORT_NAME_LEN];
    char units[REPORT_UNITS_LEN];
    int is_fp;              /* values are doubles (PAPI_DATATYPE_FP64), else integers */
    unsigned char *present; /* per rank: 1 if that rank measured it */
    long long *ival;        /* per rank, integer events */
    double *dval;           /* per rank, both kinds (ival converted for integers) */
    /* filled by report_compute */
    int nranks;                       /* ranks that measured it */
    int min_rank, max_rank;           /* -1 when nranks == 0 */
    double min, max, mean, imbalance; /* imbalance = max/mean, 0 when mean is 0 */
    long double sum;
    int sampled; /* a maximum kept over what reads see: sampled (report_job_t.sample_ms) */
} report_event_t;

/* An event some rank could not add. */
typedef struct report_skip {
    char name[REPORT_NAME_LEN];
    char reason[REPORT_REASON_LEN];
    int nranks;     /* ranks that skipped it */
    int first_rank; /* the first of them */
    int is_default; /* a default metric the running MPI cannot give (said at the top) */
} report_skip_t;

/* Unexpected messages by sender (papi_mpit.h): a receiver x sender matrix. */
enum { REPORT_SENDERS_NONE = 0, REPORT_SENDERS_COUNT = 1, REPORT_SENDERS_QUEUE_MAX = 2 };
typedef struct report_senders {
    int kind;                     /* REPORT_SENDERS_*: NONE when no rank had a source */
    int ncols;                    /* senders 0 .. ncols-1 (min(nprocs, the component's bound)) */
    unsigned char *present;       /* per receiver: 1 if that rank sent its row */
    long long *matrix;            /* nprocs rows (receivers) x ncols (senders) */
    long long *other;             /* per receiver: senders beyond ncols, or not translatable */
    char note[REPORT_REASON_LEN]; /* why there is no matrix (kind NONE) */
} report_senders_t;

/* The communication matrix (papi_mpit_peers_*, Open MPI's monitoring):
 * per kind, the sender x receiver pairs with any traffic in the counting
 * window, sorted by sender then receiver (report_matrix.c). */
enum {
    REPORT_MATRIX_P2P,
    REPORT_MATRIX_COLL,
    REPORT_MATRIX_RMA_PUT,
    REPORT_MATRIX_RMA_GET,
    REPORT_MATRIX_KINDS
};
typedef struct report_cell {
    int sender, receiver;
    long long msgs; /* -1: the MPI counts no messages for this kind (RMA) */
    long long bytes;
} report_cell_t;
typedef struct report_matrix {
    int nranks[REPORT_MATRIX_KINDS]; /* ranks that gave the kind (0: absent) */
    int ncells[REPORT_MATRIX_KINDS], cap[REPORT_MATRIX_KINDS];
    report_cell_t *cells[REPORT_MATRIX_KINDS];
    char why[REPORT_MATRIX_KINDS][REPORT_REASON_LEN]; /* why a kind is absent */
    char note[REPORT_REASON_LEN];                     /* why there is no matrix at all */
} report_matrix_t;

/* Sections another part of the tool adds (the call sites, utils/report/sites/):
 * the renderings call those that are set, with arg. */
typedef struct report_extra {
    const void *arg;
    int (*json)(struct json_t *obj, const void *arg); /* adds members to report.json's object */
    int (*html_top)(FILE *out, const void *arg);      /* after the page's first paragraph */
    int (*html)(FILE *out, const void *arg);          /* a section before "Not measured" */
    const char *html_nav;                             /* its link: "<a href=...>...</a>" */
} report_extra_t;

/* A queue's depth over time on one rank (report_queues.c): what the
 * sampler thread read of a queue-length event, a bounded ring of the last
 * samples (t: seconds since MPI_Init). */
typedef struct report_series {
    char name[REPORT_NAME_LEN];
    int rank, n;
    double *t, *v;
} report_series_t;

typedef struct report_job {
    int nprocs;
    char (*hosts)[REPORT_HOST_LEN]; /* per rank; "" in a merge: the rank left no state */
    double *elapsed;                /* per rank: seconds from MPI_Init to MPI_Finalize */
    char mpi_library[256];          /* first line of MPI_Get_library_version */
    char command[1024];             /* the program and its arguments */
    char started[64];               /* ISO 8601 time of rank 0's MPI_Init return */
    char papi_version[32];          /* "7.0.0.0", or "" when unknown */
    int no_files;                   /* no output directory: the table names no file */
    int console;                    /* rendering for the terminal: the short forms */
    /* the tool's own time on rank 0, outside the measured window: start-up
     * (after MPI_Init returned, before counting started) and collection
     * (after every rank stopped counting, until every record is on rank 0) */
    int tool_cost_measured;
    double tool_startup_s, tool_collect_s;
    double tool_mpit_init_s;   /* of tool_startup_s, the MPI's own MPI_T_init_thread */
    double tool_collect_bytes; /* the records as collected (report_records.h) */
    /* the maxima kept over what reads see (events with sampled set): read
     * every sample_ms by the tool (0: sampling off, so only at start and
     * end); samples_min: the fewest samples any rank took; sample_cpu_s:
     * the largest CPU time of a rank's sampler thread (its cost) */
    double sample_ms, sample_cpu_s;
    long samples_min;
    int nevents, cap_events;
    report_event_t *events;
    int nskips, cap_skips;
    report_skip_t *skips;
    report_senders_t senders;
    report_matrix_t matrix;
    report_extra_t extra;
    /* per rank: seconds inside the program's MPI calls (the call sites'
     * time) and their share of elapsed (NaN: not known), from
     * utils/report/sites/; NULL when the sites were off */
    const double *mpi_s, *mpi_share;
    report_series_t *series; /* queue depth over time (report_queues.c) */
    int nseries, cap_series;
    int partial;  /* merged from the per-rank snapshots of a run that ended early */
    int left_out; /* a run's report without some ranks' records (they did not
                   * reach rank 0: report_collect.c) */
} report_job_t;

/* Allocation and filling (rank 0).  report_job_init: 0, or -1 when out of
 * memory (job then empty).  None of them ends the process: it is the
 * measured program's. */
int report_job_init(report_job_t *job, int nprocs);
void report_job_free(report_job_t *job);
/* The event called name, created (empty, in order of first appearance) if
 * new; NULL when out of memory. */
report_event_t *report_job_event(report_job_t *job, const char *name, const char *units, int is_fp);
report_skip_t *report_job_skip(report_job_t *job, const char *name, const char *reason, int rank);
/* The default metrics the running MPI cannot give: in the table after the
 * events, grouped by reason (prefix before each line), and in the JSON
 * ("not_provided"), each with its own reason; how many there are. */
int report_not_provided_count(const report_job_t *job);
/* Grouped by reason, one line per distinct reason naming its metrics
 * ("6 metrics need Open MPI built with --enable-spc ...: OOS_MSGS, ..."):
 * how many groups; group_of[i] (room for nskips) is the group of skip i, -1
 * for a skip that is not a default metric.  report_not_provided_line writes
 * group g's line (no newline); html: names escaped and in <code>. */
int report_not_provided_groups(const report_job_t *job, int *group_of);
void report_not_provided_line(FILE *out, const report_job_t *job, const int *group_of, int g, int html);
/* The part of a skip's reason shared by the metrics with the same cause:
 * without a leading "NAME is not available on ...: " naming the metric. */
const char *report_reason_cause(const report_skip_t *s);
void report_not_provided_table(FILE *out, const report_job_t *job, const char *prefix);
/* The same on the terminal: at most three lines, one per thing that would
 * give them (an Open MPI rebuild, an MPICH rebuild, Open MPI's monitoring),
 * each with its metrics; every reason stays in report.txt and the page. */
void report_not_provided_brief(FILE *out, const report_job_t *job);
/* Allocates the (zeroed) sender matrix with ncols columns: 0, or -1 when
 * out of memory (nothing allocated); kind is set by the caller, with
 * present[], matrix and other per receiver. */
int report_job_senders(report_job_t *job, int ncols);

/* The communication matrix (report_matrix.c).  Kind names: "p2p", "coll",
 * "rma_put", "rma_get"; -1 for an unknown name. */
const char *report_matrix_kind_name(int kind);
/* What a cell's row and column are for the kind, one phrase (for coll:
 * Open MPI files a rooted collective at its root, whichever way the data
 * flows). */
const char *report_matrix_kind_axes(int kind);
int report_matrix_kind(const char *name);
/* Rank rank gave kind (entries may follow, or none: no traffic). */
void report_matrix_present(report_job_t *job, int kind);
void report_matrix_add(report_job_t *job, int kind, int sender, int receiver, long long msgs,
                       long long bytes);
/* Sorts the cells (after the last add). */
void report_matrix_finish(report_job_t *job);
/* 1 when some kind is present. */
int report_matrix_any(const report_job_t *job);
/* matrix.csv: kind,sender,receiver,messages,bytes (messages empty when
 * unknown); matrix.svg: a heatmap of bytes per kind; the JSON "matrix"
 * member (and "matrix_note") added to obj (0, or -1 when out of memory);
 * the table's lines (totals and the busiest pair per kind). */
int report_write_matrix_csv(FILE *out, const report_job_t *job);
int report_write_matrix_svg(FILE *out, const report_job_t *job);
int report_matrix_svg_body(FILE *out, const report_job_t *job);
int report_matrix_json(struct json_t *obj, const report_job_t *job);
void report_matrix_table(FILE *out, const report_job_t *job);
/* The heatmap's blocks: ranks per cell side, 1 up to REPORT_MATRIX_SIDE ranks. */
#define REPORT_MATRIX_SIDE 128
int report_matrix_block(int nprocs);

/* A sender x receiver heatmap panel of an SVG (the communication matrix's
 * kinds, the program's own point-to-point): blocks of ranks beyond
 * REPORT_MATRIX_SIDE, coloured by bytes (messages when no byte moved). */
typedef struct report_heatmap {
    const report_cell_t *cells;
    int ncells, nprocs;
    const char *name, *title; /* "NAME: TITLE" above the panel */
    const char *axes;         /* what a row and a column are, a line */
    const char *axis[2];      /* the row and column axis titles */
    int counts_msgs;          /* cells hold message counts */
} report_heatmap_t;
int report_heatmap_width(void);
int report_heatmap_height(const report_heatmap_t *h);
void report_heatmap_panel(FILE *out, const report_heatmap_t *h, int y_top);

/* min, max, mean, ranks of min and max, imbalance of every event. */
void report_compute(report_job_t *job);

/* Renderings.  Return 0, or -1 on an output error. */
int report_write_table(FILE *out, const report_job_t *job);
/* A merge's rank with no state (report_job_t.partial, no host), or a run's
 * rank whose record was left out (left_out, no host), and the
 * hosts of the ranks that have one (*nmissing: how many have none; may be
 * NULL): a rank that left nothing is named missing, never a host. */
int report_rank_missing(const report_job_t *job, int r);
/* Over v[0..n-1] but its NaNs: the least and the most (their indices) and
 * the mean; 0, or -1 when all are NaN. */
int report_stats_nan(const double *v, int n, double *min, int *min_rank, double *mean, double *max,
                     int *max_rank);
int report_count_hosts(const report_job_t *job, int *nmissing);
/* For each rank, the first rank on its host (itself for the first; -1 for a
 * rank with no state), from one pass over a hash of the names: what the
 * host counts and lists compare instead of every rank's name with every
 * rank's before it.  NULL when out of memory (then they compare names). */
int *report_host_first(const report_job_t *job);
/* Whether rank r's host is that of a rank before it (by the names). */
int report_host_seen_before(const report_job_t *job, int r);
int report_write_csv(FILE *out, const report_job_t *job);
int report_write_json(FILE *out, const report_job_t *job);
/* report.json's document (the extra hook's members included), written
 * once by report_write_json; NULL when out of memory or the hook failed. */
struct json_t *report_json(const report_job_t *job);
/* chart: comma-separated event names, or NULL/""/"all" for every measured
 * event; names not measured are left out. */
int report_write_svg(FILE *out, const report_job_t *job, const char *chart);
/* The sender matrix (only when senders.kind != NONE): a CSV with a row per
 * receiver and a column per sender (then "other"), and a heatmap. */
int report_write_senders_csv(FILE *out, const report_job_t *job);
int report_write_senders_svg(FILE *out, const report_job_t *job);
/* The heatmap's label step: every k-th rank is labelled, k the smallest of
 * 1, 2, 5, 10, 20, 50, ... that keeps labels cell_px * k apart by at least
 * the widest label (the digits of n-1) when they stand side by side
 * (across: the sender axis), or a line height (the receiver axis). */
int report_senders_label_step(int n, double cell_px, double font_px, int across);

/* report.html (report_html.c): the overview, the summary table, per-rank
 * charts, the sender matrix, the skipped events and the run's facts in one
 * self-contained page; overview.svg (report_overview.c): the overview alone,
 * an events x ranks heatmap, each event scaled to its own maximum. */
int report_write_html(FILE *out, const report_job_t *job);
int report_write_overview_svg(FILE *out, const report_job_t *job);
/* The overview drawn inside another document (no XML declaration). */
int report_overview_svg(FILE *out, const report_job_t *job);
/* Rank columns of the overview: at most REPORT_OVERVIEW_COLUMNS; beyond
 * that, groups of report_overview_group(n) consecutive ranks. */
#define REPORT_OVERVIEW_COLUMNS 256
int report_overview_group(int nprocs);
/* The overview's rows: indices of the events not 0 everywhere, by max/mean
 * (largest first, then in measured order); idx has room for nevents. */
int report_overview_order(const report_job_t *job, int *idx);
/* 1 when the event is 0 on every rank that measured it (and some did). */
int report_event_all_zero(const report_event_t *e);

/* Queue depth over time (report_queues.c): a series of rank's samples of
 * the event, added by the record reader (report_job_free frees them); the
 * report.html section (nothing when no rank sampled a queue length). */
report_series_t *report_job_series(report_job_t *job, const char *name, int rank, int n);
int report_queues_html(FILE *out, const report_job_t *job);

/* What the sampled maxima are, one sentence without a final stop, for every
 * rendering; 0 (and "") when no event is a sampled maximum. */
int report_sampling_note(char *buf, size_t len, const report_job_t *job);

/* Formatting shared by the renderings (report_units.c, report_stats.c,
 * report_json.c, report_kit.c). */
void report_fmt_num(char *buf, size_t len, double v);                         /* for people */
void report_fmt_value(char *buf, size_t len, const report_event_t *e, int r); /* exact, as in JSON */
void report_fmt_json_num(char *buf, size_t len, double v);                    /* exact, as in JSON */
void report_xml_str(FILE *out, const char *s);                                /* escaped for XML/HTML */
/* Numbers for people (report_units.c): a value in the event's units shown
 * in bytes as B/KiB/MiB/GiB, in time as ns/µs/ms/s, 3 significant digits;
 * other units as report_fmt_num.  report_unit_kind tells which (and what one
 * unit is worth in bytes or seconds). */
enum { REPORT_UNIT_NONE, REPORT_UNIT_BYTES, REPORT_UNIT_TIME };
int report_unit_kind(const char *units, double *scale);
void report_fmt_human(char *buf, size_t len, double v, const char *units);
/* A run's duration: "12.345 s" from a second on, below it in ms or µs
 * (3 significant digits), where "0.000 s" said nothing. */
void report_fmt_seconds(char *buf, size_t len, double s);
int report_text_width(const char *s); /* columns of a UTF-8 string */
/* The command line from n bytes of NUL-separated arguments (as in
 * /proc/self/cmdline), each quoted as a shell needs it: a "b c" -> a 'b c'. */
void report_fmt_command(char *buf, size_t len, const char *args, size_t n);
/* report.json's values (report_kit.c): a string (bytes that are not UTF-8
 * become U+FFFD), a number as report_fmt_json_num writes it (null, an
 * integer when it is one, else a double), a double rounded to 9 decimals;
 * NULL when out of memory. */
struct json_t *report_json_string(const char *s);
struct json_t *report_json_number(double v);
struct json_t *report_json_fixed9(double v);
void report_heat_colour(double t, char *buf, size_t len); /* 0 < t <= 1, blues */
/* s cut at each sep (in place) into at most max fields f[]; returns how many */
int report_split(char *s, char sep, char **f, int max);
/* One bar chart panel (800 x REPORT_PANEL_H px) of an event, a bar per rank,
 * drawn at y0 inside an SVG document. */
#define REPORT_PANEL_W 800
#define REPORT_PANEL_H 260
void report_svg_panel(FILE *out, const report_job_t *job, const report_event_t *e, int y0);
/* The sender heatmap inside another document (no XML declaration). */
int report_senders_svg_body(FILE *out, const report_job_t *job);

/* The names of a chart list (-c) that match no measured event, into out
 * (comma-separated); returns how many. */
int report_chart_unknown(const report_job_t *job, const char *chart, char *out, size_t len);

/* Helpers shared with the interposer. */
int report_mkdir_p(const char *dir);
/* Writes dir/file with the given renderer, whole or not at all (a temporary
 * name, then rename); returns -1 with errno set on failure, printing nothing. */
int report_write_file(const char *dir, const char *file, const report_job_t *job,
                      int (*render)(FILE *, const report_job_t *));
/* A new temporary file for dir/file, its name in tmp (len bytes): created
 * exclusively (no symbolic link followed, no file reused) under a name that
 * cannot be guessed; NULL with errno set on failure. */
FILE *report_open_temp(const char *dir, const char *file, char *tmp, size_t len);

#endif
