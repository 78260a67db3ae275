/* Included by scale.c: its content is part of the cache key. */
#define SCALE(a, v) ((a) * (v))
