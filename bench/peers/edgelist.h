/* Shared by the C peers: reads a plain-text edge list the way `webrank build` does, so that every
 * program ranks the same pages in the same order.
 *
 *  - one link per line, "SOURCE<blanks or tab>TARGET"; a line with a single field declares a page;
 *  - lines whose first non-blank character is '#' or '%' are comments, blank lines are skipped,
 *    '\r' is ignored;
 *  - labels must be unsigned decimal integers below 2^32 (all graphs of the benchmark are), and
 *    they are labels, not positions: page ids follow the order of first appearance, exactly as
 *    webrank numbers pages (no page is invented between two labels);
 *  - duplicate links are NOT removed here (each peer removes them the way its library does).
 *
 * The file is memory-mapped; compressed input must be decompressed first (bench/compare does). */
#ifndef BENCH_EDGELIST_H
#define BENCH_EDGELIST_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct {
  uint32_t *src, *dst; /* page ids of each link, in file order */
  size_t links;        /* lines with two fields (duplicates included) */
  uint32_t pages;      /* distinct labels */
  uint32_t* label;     /* label[id]: the numeric label of page id */
} edgelist;

static double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void bench_die(const char* what, const char* detail) {
  fprintf(stderr, "%s: %s\n", what, detail);
  exit(1);
}

/* label -> id table, grown on demand; UINT32_MAX = not seen yet. */
typedef struct {
  uint32_t* id;
  size_t cap;
} label_map;

static uint32_t label_map_get(label_map* m, edgelist* g, uint64_t label, size_t* label_cap) {
  if (label >= m->cap) {
    size_t cap = m->cap ? m->cap : 1 << 16;
    while (cap <= label) cap *= 2;
    m->id = (uint32_t*)realloc(m->id, cap * sizeof(uint32_t));
    if (!m->id) bench_die("edgelist", "out of memory");
    memset(m->id + m->cap, 0xff, (cap - m->cap) * sizeof(uint32_t));
    m->cap = cap;
  }
  uint32_t id = m->id[label];
  if (id == UINT32_MAX) {
    id = g->pages++;
    if (id >= *label_cap) {
      *label_cap = *label_cap ? *label_cap * 2 : 1 << 16;
      g->label = (uint32_t*)realloc(g->label, *label_cap * sizeof(uint32_t));
      if (!g->label) bench_die("edgelist", "out of memory");
    }
    g->label[id] = (uint32_t)label;
    m->id[label] = id;
  }
  return id;
}

static int edgelist_read(const char* path, edgelist* g) {
  memset(g, 0, sizeof *g);
  int fd = open(path, O_RDONLY);
  if (fd < 0) bench_die(path, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0) bench_die(path, strerror(errno));
  size_t size = (size_t)st.st_size;
  const char* p = size ? (const char*)mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0) : "";
  if (p == MAP_FAILED) bench_die(path, strerror(errno));
  if (size) madvise((void*)p, size, MADV_SEQUENTIAL);
  /* A link line is at least 4 bytes ("a b\n"): size/4 bounds the link count; start smaller. */
  size_t cap = size / 16 + 1024;
  g->src = (uint32_t*)malloc(cap * sizeof(uint32_t));
  g->dst = (uint32_t*)malloc(cap * sizeof(uint32_t));
  label_map map = {NULL, 0};
  size_t label_cap = 0;
  const char* end = p + size;
  size_t line = 0;
  while (p < end) {
    ++line;
    const char* eol = (const char*)memchr(p, '\n', (size_t)(end - p));
    if (!eol) eol = end;
    const char* q = p;
    while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r')) ++q;
    if (q == eol || *q == '#' || *q == '%') {
      p = eol + 1;
      continue;
    }
    uint64_t v[2] = {0, 0};
    int fields = 0;
    while (q < eol) {
      if (*q < '0' || *q > '9') {
        char msg[160];
        snprintf(msg, sizeof msg, "line %zu: labels must be unsigned integers (bench peers only)",
                 line);
        bench_die(path, msg);
      }
      uint64_t x = 0;
      while (q < eol && *q >= '0' && *q <= '9') x = x * 10 + (uint64_t)(*q++ - '0');
      if (fields == 2 || x >= UINT32_MAX) {
        char msg[160];
        snprintf(msg, sizeof msg, "line %zu: more than two fields or a label >= 2^32", line);
        bench_die(path, msg);
      }
      v[fields++] = x;
      while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r')) ++q;
    }
    uint32_t a = label_map_get(&map, g, v[0], &label_cap);
    if (fields == 2) {
      uint32_t b = label_map_get(&map, g, v[1], &label_cap);
      if (g->links == cap) {
        cap *= 2;
        g->src = (uint32_t*)realloc(g->src, cap * sizeof(uint32_t));
        g->dst = (uint32_t*)realloc(g->dst, cap * sizeof(uint32_t));
        if (!g->src || !g->dst) bench_die("edgelist", "out of memory");
      }
      g->src[g->links] = a;
      g->dst[g->links] = b;
      ++g->links;
    }
    p = eol + 1;
  }
  if (size) munmap((void*)(end - size), size);
  close(fd);
  free(map.id);
  return 0;
}

static void edgelist_free(edgelist* g) {
  free(g->src);
  free(g->dst);
  free(g->label);
  memset(g, 0, sizeof *g);
}

/* Writes "label<TAB>rank" per page in id order (webrank --out's layout, 17 significant digits). */
static void write_vector(const char* path, const edgelist* g, const double* x) {
  FILE* f = fopen(path, "w");
  if (!f) bench_die(path, strerror(errno));
  static char buf[1 << 20];
  setvbuf(f, buf, _IOFBF, sizeof buf);
  for (uint32_t i = 0; i < g->pages; ++i) fprintf(f, "%u\t%.17g\n", g->label[i], x[i]);
  if (fclose(f) != 0) bench_die(path, strerror(errno));
}

#endif
