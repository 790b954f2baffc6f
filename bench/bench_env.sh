# Sourced by the bench scripts after they set top (the checkout): the build
# tree ($BUILD, default _build), the installation measured ($PREFIX, default
# $BUILD/install) and the MPI flavors (ctests/flavors.sh: flavor_vars).
BUILD=${BUILD:-$top/_build}
PREFIX=${PREFIX:-$BUILD/install}
. "$top/ctests/flavors.sh"
