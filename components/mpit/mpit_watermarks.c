#include "mpit_watermarks.h"

#include <stdatomic.h>

#define FREE_CELL (-1)

static _Atomic int cell_key[MPIT_WATERMARK_CELLS];
static _Atomic int64_t cell_max[MPIT_WATERMARK_CELLS];
static atomic_int initialized;
static atomic_int cells_used; /* cells at or above this index were never watched */

static void init_once(void)
{
    int expected = 0;
    if (atomic_load(&initialized) == 2) return;
    if (atomic_compare_exchange_strong(&initialized, &expected, 1)) {
        for (int i = 0; i < MPIT_WATERMARK_CELLS; i++) atomic_store(&cell_key[i], FREE_CELL);
        atomic_store(&initialized, 2);
    }
    while (atomic_load(&initialized) != 2) {}
}

int mpit_watermark_watch(int key)
{
    init_once();
    for (int i = 0; i < MPIT_WATERMARK_CELLS; i++) {
        int expected = FREE_CELL;
        if (atomic_compare_exchange_strong(&cell_key[i], &expected, key)) {
            /* an offer racing with this store may be lost: it predates the watch */
            atomic_store(&cell_max[i], INT64_MIN);
            int used = atomic_load(&cells_used);
            while (used < i + 1 && !atomic_compare_exchange_weak(&cells_used, &used, i + 1)) {}
            return i;
        }
    }
    return -1;
}

void mpit_watermark_unwatch(int cell)
{
    if (cell >= 0 && cell < MPIT_WATERMARK_CELLS) atomic_store(&cell_key[cell], FREE_CELL);
}

void mpit_watermark_offer(int key, int64_t value)
{
    if (atomic_load(&initialized) != 2) return;
    int used = atomic_load_explicit(&cells_used, memory_order_acquire);
    for (int i = 0; i < used; i++) {
        if (atomic_load_explicit(&cell_key[i], memory_order_acquire) != key) continue;
        int64_t old = atomic_load(&cell_max[i]);
        while (value > old && !atomic_compare_exchange_weak(&cell_max[i], &old, value)) {}
    }
}

int64_t mpit_watermark_max(int cell)
{
    return cell >= 0 && cell < MPIT_WATERMARK_CELLS ? atomic_load(&cell_max[cell]) : INT64_MIN;
}
