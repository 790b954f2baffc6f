/*
 * papi-mpit-report: Open MPI's predefined handles, looked up when used.
 *
 * A program may load its MPI with dlopen, privately (RTLD_LOCAL: Python
 * loads mpi4py's module so, and libmpi with it), where neither the
 * interposer's PMPI_ calls nor the mpit component can find it:
 * report_mpi_global() makes that library global first.
 *
 * Open MPI's MPI_COMM_WORLD, MPI_BYTE, ... are addresses of objects in
 * libmpi.  The interposer links no libmpi (it loads into mpirun, and into
 * programs of any Open MPI release whatever its soname), so a reference to
 * them would be resolved when the interposer is loaded: before libmpi is
 * there in a program that loads MPI later with dlopen (Python's mpi4py,
 * Julia, R), which then dies at start ("undefined symbol:
 * ompi_mpi_comm_world"), or resolved to nothing by a weak reference.  Here
 * they are looked up in the process (dlsym) when first used, which is after
 * MPI_Init.  Include after <mpi.h>; MPICH's handles are constants.
 */
#ifndef PAPI_MPIT_REPORT_HANDLES_H
#define PAPI_MPIT_REPORT_HANDLES_H

/* Before the first PMPI_ call: the loaded library that defines
 * PMPI_Init, made global (RTLD_GLOBAL) if it is not; 0 when it is, -1 when
 * no loaded library defines it. */
int report_mpi_global(void);

#if defined(OPEN_MPI)
enum {
    REPORT_H_COMM_WORLD,
    REPORT_H_COMM_NULL,
    REPORT_H_BYTE,
    REPORT_H_REQUEST_NULL,
    REPORT_H_COMM_SELF,
    REPORT_H_DATATYPE_NULL,
    REPORT_H_MESSAGE_NULL,
    REPORT_H_MESSAGE_NO_PROC,
    REPORT_H_WIN_NULL,
    REPORT_H_COUNT
};
/* The object of handle h (REPORT_H_*), or NULL where no MPI is loaded. */
void *report_ompi_handle(int h);

#undef MPI_COMM_WORLD
#undef MPI_COMM_NULL
#undef MPI_BYTE
#undef MPI_REQUEST_NULL
#undef MPI_COMM_SELF
#undef MPI_DATATYPE_NULL
#undef MPI_MESSAGE_NULL
#undef MPI_MESSAGE_NO_PROC
#undef MPI_WIN_NULL
#define MPI_DATATYPE_NULL   ((MPI_Datatype)report_ompi_handle(REPORT_H_DATATYPE_NULL))
#define MPI_MESSAGE_NULL    ((MPI_Message)report_ompi_handle(REPORT_H_MESSAGE_NULL))
#define MPI_MESSAGE_NO_PROC ((MPI_Message)report_ompi_handle(REPORT_H_MESSAGE_NO_PROC))
#define MPI_COMM_SELF       ((MPI_Comm)report_ompi_handle(REPORT_H_COMM_SELF))
#define MPI_COMM_WORLD      ((MPI_Comm)report_ompi_handle(REPORT_H_COMM_WORLD))
#define MPI_COMM_NULL       ((MPI_Comm)report_ompi_handle(REPORT_H_COMM_NULL))
#define MPI_BYTE            ((MPI_Datatype)report_ompi_handle(REPORT_H_BYTE))
#define MPI_REQUEST_NULL    ((MPI_Request)report_ompi_handle(REPORT_H_REQUEST_NULL))
#define MPI_WIN_NULL        ((MPI_Win)report_ompi_handle(REPORT_H_WIN_NULL))
#endif

#endif
