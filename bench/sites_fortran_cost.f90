! What a call costs through papi-mpit-report's Fortran entry points
! (utils/report/sites/site_fortran.c): MPI_SEND of one integer to MPI_PROC_NULL,
! one rank, from `use mpi` and from `use mpi_f08`, the best and the median
! of many short trials.  bench/report_sites_fortran.sh runs it without the
! tool and with it.
!   sites_fortran_cost [calls] [trials]    (default 20000, 50)
! prints one line per interface: "iface=NAME ns_per_call=BEST median=MEDIAN"
module timing
  implicit none
contains
  subroutine report(name, t, trials)
    character(*), intent(in) :: name
    integer, intent(in) :: trials
    double precision, intent(inout) :: t(trials)
    integer :: i, j
    double precision :: x
    do i = 2, trials  ! insertion sort: a few dozen trials
      x = t(i)
      j = i - 1
      do while (j >= 1)
        if (t(j) <= x) exit
        t(j + 1) = t(j)
        j = j - 1
      end do
      t(j + 1) = x
    end do
    write (*, '(a,a,a,f0.1,a,f0.1)') 'iface=', name, ' ns_per_call=', t(1), ' median=', t(trials / 2 + 1)
  end subroutine report
end module timing

subroutine legacy(n, trials)
  use mpi
  use timing
  implicit none
  integer, intent(in) :: n, trials
  integer :: i, r, x, ierr
  double precision :: a, t(trials)
  x = 0
  do i = 1, 10  ! outside the timing: the site is seen
    call MPI_SEND(x, 1, MPI_INTEGER, MPI_PROC_NULL, 0, MPI_COMM_WORLD, ierr)
  end do
  do r = 1, trials
    a = MPI_WTIME()
    do i = 1, n
      call MPI_SEND(x, 1, MPI_INTEGER, MPI_PROC_NULL, 0, MPI_COMM_WORLD, ierr)
    end do
    t(r) = (MPI_WTIME() - a) * 1d9 / n
  end do
  call report('use_mpi', t, trials)
end subroutine legacy

subroutine modern(n, trials)
  use mpi_f08
  use timing
  implicit none
  integer, intent(in) :: n, trials
  integer :: i, r, x
  double precision :: a, t(trials)
  x = 0
  do i = 1, 10
    call MPI_Send(x, 1, MPI_INTEGER, MPI_PROC_NULL, 0, MPI_COMM_WORLD)
  end do
  do r = 1, trials
    a = MPI_Wtime()
    do i = 1, n
      call MPI_Send(x, 1, MPI_INTEGER, MPI_PROC_NULL, 0, MPI_COMM_WORLD)
    end do
    t(r) = (MPI_Wtime() - a) * 1d9 / n
  end do
  call report('use_mpi_f08', t, trials)
end subroutine modern

program sites_fortran_cost
  use mpi
  implicit none
  integer :: ierr, n, trials
  character(len=32) :: arg
  call MPI_INIT(ierr)
  n = 20000
  trials = 50
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) trials
  end if
  call legacy(n, trials)
  call modern(n, trials)
  call MPI_FINALIZE(ierr)
end program sites_fortran_cost
