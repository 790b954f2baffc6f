/* report_sites_lib.c's functions (t_report_sites_lib.sh) */
#ifndef REPORT_SITES_LIB_H
#define REPORT_SITES_LIB_H
int lib_send(const char *buf, int n, int peer);
int lib_bcast(int *v, int root);
int lib_bcast2(int *v, int root);
int lib_vla_send(const char *buf, int n, int peer);
#endif
