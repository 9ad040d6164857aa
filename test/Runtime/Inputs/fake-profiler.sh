#!/bin/sh
# Stands for ncu or nsys in the --profile tests: prints its name and each
# argument on a line of its own, and runs nothing.
echo "profiler $(basename "$0"):"
for a in "$@"; do echo "  $a"; done
