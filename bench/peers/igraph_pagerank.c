/* igraph peer: PageRank with PRPACK (igraph's default algorithm) on an edge list.
 *
 *   igraph_pagerank EDGES [--damping 0.85] [--out VECTOR.tsv] [--threads N]
 *
 * Load = parse the edge list (bench/peers/edgelist.h: pages in order of first appearance, as
 * webrank) + igraph_create + igraph_simplify (duplicate links merged, self-links kept: webrank's
 * conventions). Rank = igraph_pagerank(PRPACK). PRPACK's tolerance is fixed inside igraph
 * (1e-10) and its iteration count is not reported. Dangling pages: PRPACK spreads their rank
 * uniformly (= webrank's default, E uniform). Prints one JSON object on stdout. */
#include <igraph.h>
#include <omp.h>

#include "edgelist.h"

int main(int argc, char** argv) {
  const char *in = NULL, *out = NULL;
  double damping = 0.85;
  int threads = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--damping") && i + 1 < argc) {
      damping = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
      out = argv[++i];
    } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
      threads = atoi(argv[++i]);
    } else if (argv[i][0] != '-' && !in) {
      in = argv[i];
    } else {
      fprintf(stderr, "usage: %s EDGES [--damping D] [--out FILE] [--threads N]\n", argv[0]);
      return 2;
    }
  }
  if (!in) {
    fprintf(stderr, "usage: %s EDGES [--damping D] [--out FILE] [--threads N]\n", argv[0]);
    return 2;
  }
  if (threads > 0) omp_set_num_threads(threads);

  const double t0 = bench_now();
  edgelist el;
  edgelist_read(in, &el);
  igraph_vector_int_t edges;
  if (igraph_vector_int_init(&edges, 2 * (igraph_integer_t)el.links)) return 1;
  for (size_t e = 0; e < el.links; ++e) {
    VECTOR(edges)[2 * e] = el.src[e];
    VECTOR(edges)[2 * e + 1] = el.dst[e];
  }
  const size_t input_links = el.links;
  free(el.src);
  free(el.dst);
  el.src = el.dst = NULL;
  igraph_t g;
  if (igraph_create(&g, &edges, el.pages, IGRAPH_DIRECTED)) return 1;
  igraph_vector_int_destroy(&edges);
  if (igraph_simplify(&g, /*multiple=*/1, /*loops=*/0, NULL)) return 1;
  const double t1 = bench_now();

  igraph_vector_t rank;
  igraph_vector_init(&rank, 0);
  igraph_real_t value;
  if (igraph_pagerank(&g, IGRAPH_PAGERANK_ALGO_PRPACK, &rank, &value, igraph_vss_all(),
                      IGRAPH_DIRECTED, damping, NULL, NULL))
    return 1;
  const double t2 = bench_now();

  double sum = 0;
  for (igraph_integer_t i = 0; i < igraph_vector_size(&rank); ++i) sum += VECTOR(rank)[i];
  if (out) write_vector(out, &el, VECTOR(rank));
  printf(
      "{\"tool\": \"igraph\", \"algorithm\": \"prpack\", \"precision\": \"double\", "
      "\"pages\": %u, \"input_links\": %zu, \"links\": %lld, \"damping\": %g, "
      "\"load_seconds\": %.6f, \"rank_seconds\": %.6f, \"iterations\": null, \"sum\": %.17g, "
      "\"threads\": %d, \"igraph_version\": \"%s\"}\n",
      el.pages, input_links, (long long)igraph_ecount(&g), damping, t1 - t0, t2 - t1, sum,
      omp_get_max_threads(), IGRAPH_VERSION);
  igraph_vector_destroy(&rank);
  igraph_destroy(&g);
  edgelist_free(&el);
  return 0;
}
