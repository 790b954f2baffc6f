/* Unit test of the numbers for people and the recorded command
 * (report_units.c): bytes in B/KiB/MiB/GiB, times in ns/µs/ms/s with 3
 * significant digits, a unit boundary crossed by the rounding, counts left
 * exact, and arguments quoted as a shell needs them. */
#include <string.h>

#include "report.h"

#include "expect.h"

static void human(double v, const char *units, const char *want)
{
    char b[64];
    report_fmt_human(b, sizeof b, v, units);
    EXPECT(strcmp(b, want) == 0, "%.17g %s: \"%s\", want \"%s\"", v, units, b, want);
}

static void command(const char *args, size_t n, const char *want)
{
    char b[256];
    report_fmt_command(b, sizeof b, args, n);
    EXPECT(strcmp(b, want) == 0, "\"%s\", want \"%s\"", b, want);
}

static void seconds(double s, const char *want)
{
    char b[64];
    report_fmt_seconds(b, sizeof b, s);
    EXPECT(strcmp(b, want) == 0, "%.17g s: \"%s\", want \"%s\"", s, b, want);
}

int main(void)
{
    /* a run's duration: "0.000 s" for a short run said nothing */
    seconds(0.000312, "312 \xc2\xb5s");
    seconds(0.0000004, "400 ns");
    seconds(0.00456, "4.56 ms");
    seconds(0.9994, "999 ms");
    seconds(0.9995, "1.000 s"); /* from a second on, as before */
    seconds(12.3456, "12.346 s");
    seconds(0, "0 s");
    /* the examples */
    human(3388254636, "bytes", "3.16 GiB");
    human(708572221, "ns", "709 ms");
    /* bytes: whole bytes below 1000 exact, then 3 significant digits */
    human(0, "bytes", "0 B");
    human(480, "bytes", "480 B");
    human(999, "bytes", "999 B");
    human(480.5, "bytes", "480 B"); /* a mean: 3 digits, %.0f rounds to even */
    human(1000, "bytes", "0.977 KiB");
    human(1024, "bytes", "1.00 KiB");
    human(1536, "bytes", "1.50 KiB");
    human(65536.0 * 20, "bytes", "1.25 MiB");
    human(1023.0 * 1024, "bytes", "0.999 MiB"); /* 1023 KiB: would read 1023 KiB, 4 digits */
    human(10.0 * 1048576, "bytes", "10.0 MiB");
    human(99.96 * 1048576, "bytes", "100 MiB"); /* 99.96 rounds to 100: no "100.0" */
    human(1099511627776.0, "bytes", "1.00 TiB");
    human(-2048, "bytes", "-2.00 KiB");
    /* times from each unit the component and PAPI give */
    human(0, "ns", "0 s");
    human(1, "ns", "1.00 ns");
    human(999, "ns", "999 ns");
    human(999.6, "ns", "1.00 \xc2\xb5s"); /* rounded to 1000 ns: the next unit */
    human(1500, "ns", "1.50 \xc2\xb5s");
    human(130378123, "ns", "130 ms");
    human(2.5, "us", "2.50 \xc2\xb5s");
    human(12345, "us", "12.3 ms");
    human(0.25, "s", "250 ms");
    human(0.9996, "s", "1.00 s");
    human(59.9, "s", "59.9 s");
    human(7200, "s", "7200 s");
    human(1.5e-10, "s", "0.150 ns");
    /* counts: as before, exact */
    human(60, "messages", "60");
    human(3388254636, "", "3388254636");
    human(0.5, "", "0.5");
    /* the kinds and what a unit is worth */
    double scale = 0;
    EXPECT(report_unit_kind("ns", &scale) == REPORT_UNIT_TIME && scale == 1e-9, "ns");
    EXPECT(report_unit_kind("bytes", &scale) == REPORT_UNIT_BYTES && scale == 1, "bytes");
    EXPECT(report_unit_kind("messages", NULL) == REPORT_UNIT_NONE, "messages");
    EXPECT(report_text_width("1.50 \xc2\xb5s") == 7, "µ is one column");

    /* the command: boundaries kept, quoted as a shell needs */
    command("a\0b c\0", 6, "a 'b c'");
    command("./app\0-n\0"
            "10\0",
            12, "./app -n 10");
    command("./app\0\0", 7, "./app ''");
    command("echo\0it's\0", 10, "echo 'it'\\''s'");
    command("x\0$HOME\0*\0a=b,c:d/e@f%g+h\0", 26, "x '$HOME' '*' a=b,c:d/e@f%g+h");
    command("p\0line\nbreak\0", 13, "p 'line\nbreak'");
    command("", 0, "");
    /* too long for the buffer: whole words, then "..." */
    char args[600];
    memset(args, 'w', sizeof args);
    for (size_t i = 99; i < sizeof args; i += 100) args[i] = '\0';
    char b[256];
    report_fmt_command(b, sizeof b, args, sizeof args);
    EXPECT(strlen(b) < sizeof b && strcmp(b + strlen(b) - 4, " ...") == 0, "\"%s\"", b);
    if (failures) return 1;
    printf("PASS report units\n");
    return 0;
}
