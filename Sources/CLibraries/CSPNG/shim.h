#include <stddef.h>
#include <stdint.h>
#include <spng.h>
