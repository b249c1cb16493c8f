#include <webp/mux.h>
