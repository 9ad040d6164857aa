/* A C program on the installed runtime (pkg-config tile-rt): calls that need
 * no GPU, and a device query that reports the missing driver. */
#include "tile-rt/tile_rt.h"

#include <stdio.h>

int main(void) {
  printf("status: %s\n", tile_rt_status_name(TILE_RT_ERROR_NO_DRIVER));
  printf("%s: %zu bytes\n", tile_rt_dtype_name(TILE_RT_F16),
         tile_rt_dtype_size(TILE_RT_F16));
  int count = -1;
  printf("device count: %s\n",
         tile_rt_status_name(tile_rt_device_count(&count)));
  return 0;
}
