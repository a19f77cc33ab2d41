/* SuiteSparse:GraphBLAS peer: the power iteration webrank runs by default, written against
 * GraphBLAS in the style of LAGraph's LAGr_PageRank.
 *
 *   graphblas_pagerank EDGES [--precision float|double] [--damping 0.85] [--tol 1e-10]
 *                      [--max-iter 1000] [--threads N] [--out VECTOR.tsv]
 *
 * Load = parse the edge list (edgelist.h: pages in order of first appearance, as webrank) and
 * GrB_Matrix_build of the TRANSPOSED adjacency matrix AT (AT(u,v) present iff v links to u;
 * duplicate links merged by LOR, self-links kept), stored by row, so y = AT*c is a pull: row u
 * of AT lists u's backlinks. The matrix is boolean and only its pattern is read (PLUS_SECOND).
 *
 * Rank (timed from the first GraphBLAS call after the load, as webrank's "seconds"):
 *   setup:   out-degree = reduce(A) over rows (AT transposed), dinv = d/outdeg (0 for dangling),
 *            D = indicator of dangling pages
 *   repeat:  dsum     = sum(r .* D)                        rank of dangling pages
 *            w        = r .* dinv                           contributions, already times d
 *            rnew(:)  = (1-d)/N + d*dsum/N                  teleport along E uniform + dangling
 *            rnew    += AT (+.second) w                     the pull sweep
 *            delta    = sum |r - rnew|
 *            r <-> rnew; stop when delta <= tol (L1, absolute: webrank's criterion)
 * Vectors are float or double (--precision); sums (dangling rank, L1 change) are reduced in the
 * same type (webrank accumulates them in double).
 * Prints one JSON object on stdout. */
#include <GraphBLAS.h>

#include "edgelist.h"

#define OK(call)                                                                                 \
  do {                                                                                           \
    GrB_Info info_ = (call);                                                                     \
    if (info_ != GrB_SUCCESS) {                                                                  \
      fprintf(stderr, "%s:%d: GraphBLAS error %d: %s\n", __FILE__, __LINE__, (int)info_, #call); \
      exit(1);                                                                                   \
    }                                                                                            \
  } while (0)

static void usage(const char* argv0) {
  fprintf(stderr,
          "usage: %s EDGES [--precision float|double] [--damping D] [--tol T] [--max-iter N] "
          "[--threads N] [--out FILE] [--burble]\n",
          argv0);
  exit(2);
}

/* scalar assign / reduce of the chosen type */
static int is_float;
static void assign_scalar(GrB_Vector v, double x, GrB_Index n) {
  if (is_float)
    OK(GrB_Vector_assign_FP32(v, NULL, NULL, (float)x, GrB_ALL, n, NULL));
  else
    OK(GrB_Vector_assign_FP64(v, NULL, NULL, x, GrB_ALL, n, NULL));
}
/* Sum in the vector's own type, as LAGraph does: a float vector reduced with the FP64 monoid
 * takes GraphBLAS 7's generic typecasting path (measured on web-NotreDame: 0.8-1.1 ms per
 * reduction against 1.7-2.4 ms for the mxv of the same iteration). */
static double sum_of(GrB_Vector v) {
  if (is_float) {
    float s = 0;
    OK(GrB_Vector_reduce_FP32(&s, NULL, GrB_PLUS_MONOID_FP32, v, NULL));
    return s;
  }
  double s = 0;
  OK(GrB_Vector_reduce_FP64(&s, NULL, GrB_PLUS_MONOID_FP64, v, NULL));
  return s;
}

int main(int argc, char** argv) {
  const char *in = NULL, *out = NULL;
  double damping = 0.85, tol = 1e-10;
  int max_iter = 1000, threads = 0, burble = 0;
  is_float = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--damping") && i + 1 < argc) {
      damping = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--tol") && i + 1 < argc) {
      tol = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--max-iter") && i + 1 < argc) {
      max_iter = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
      threads = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--burble")) {
      burble = 1;
    } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
      out = argv[++i];
    } else if (!strcmp(argv[i], "--precision") && i + 1 < argc) {
      ++i;
      if (!strcmp(argv[i], "float"))
        is_float = 1;
      else if (strcmp(argv[i], "double"))
        usage(argv[0]);
    } else if (argv[i][0] != '-' && !in) {
      in = argv[i];
    } else {
      usage(argv[0]);
    }
  }
  if (!in) usage(argv[0]);

  OK(GrB_init(GrB_NONBLOCKING));
  if (threads > 0) OK(GxB_Global_Option_set(GxB_NTHREADS, threads));
  if (burble) OK(GxB_Global_Option_set(GxB_BURBLE, true)); /* which kernels GraphBLAS picks */
  const GrB_Type T = is_float ? GrB_FP32 : GrB_FP64;
  const GrB_BinaryOp PLUS = is_float ? GrB_PLUS_FP32 : GrB_PLUS_FP64;
  const GrB_BinaryOp MINUS = is_float ? GrB_MINUS_FP32 : GrB_MINUS_FP64;
  const GrB_BinaryOp TIMES = is_float ? GrB_TIMES_FP32 : GrB_TIMES_FP64;
  const GrB_BinaryOp DIV = is_float ? GrB_DIV_FP32 : GrB_DIV_FP64;
  const GrB_UnaryOp ABS = is_float ? GrB_ABS_FP32 : GrB_ABS_FP64;
  const GrB_Monoid PLUS_MONOID = is_float ? GrB_PLUS_MONOID_FP32 : GrB_PLUS_MONOID_FP64;
  const GrB_Semiring PLUS_SECOND = is_float ? GxB_PLUS_SECOND_FP32 : GxB_PLUS_SECOND_FP64;

  /* ---- load ---- */
  const double t0 = bench_now();
  edgelist el;
  edgelist_read(in, &el);
  const GrB_Index n = el.pages, m = el.links;
  GrB_Index* I = (GrB_Index*)malloc(m * sizeof(GrB_Index));
  GrB_Index* J = (GrB_Index*)malloc(m * sizeof(GrB_Index));
  bool* X = (bool*)malloc(m * sizeof(bool));
  if (!I || !J || !X) bench_die("graphblas_pagerank", "out of memory");
  for (GrB_Index e = 0; e < m; ++e) {
    I[e] = el.dst[e]; /* row = target: AT */
    J[e] = el.src[e];
    X[e] = true;
  }
  free(el.src);
  free(el.dst);
  el.src = el.dst = NULL;
  GrB_Matrix AT;
  OK(GrB_Matrix_new(&AT, GrB_BOOL, n, n));
  OK(GrB_Matrix_build_BOOL(AT, I, J, X, m, GrB_LOR));
  OK(GrB_Matrix_wait(AT, GrB_MATERIALIZE));
  free(I);
  free(J);
  free(X);
  GrB_Index links;
  OK(GrB_Matrix_nvals(&links, AT));
  const double t1 = bench_now();

  /* ---- rank ---- */
  GrB_Vector outdeg, dinv_sparse, dinv, D, r, rnew, w, t, tD;
  OK(GrB_Vector_new(&outdeg, T, n));
  OK(GrB_Matrix_reduce_Monoid(outdeg, NULL, NULL, PLUS_MONOID, AT, GrB_DESC_T0));
  OK(GrB_Vector_new(&dinv_sparse, T, n));
  if (is_float)
    OK(GrB_Vector_apply_BinaryOp1st_FP32(dinv_sparse, NULL, NULL, DIV, (float)damping, outdeg,
                                         NULL));
  else
    OK(GrB_Vector_apply_BinaryOp1st_FP64(dinv_sparse, NULL, NULL, DIV, damping, outdeg, NULL));
  OK(GrB_Vector_new(&dinv, T, n));
  assign_scalar(dinv, 0.0, n);
  OK(GrB_Vector_assign(dinv, NULL, PLUS, dinv_sparse, GrB_ALL, n, NULL)); /* dense, 0 = dangling */
  OK(GrB_Vector_new(&D, T, n));
  if (is_float)
    OK(GrB_Vector_assign_FP32(D, outdeg, NULL, 1.0f, GrB_ALL, n, GrB_DESC_SC));
  else
    OK(GrB_Vector_assign_FP64(D, outdeg, NULL, 1.0, GrB_ALL, n, GrB_DESC_SC));
  GrB_Index dangling_pages;
  OK(GrB_Vector_nvals(&dangling_pages, D));
  GrB_free(&outdeg);
  GrB_free(&dinv_sparse);
  OK(GrB_Vector_new(&r, T, n));
  OK(GrB_Vector_new(&rnew, T, n));
  OK(GrB_Vector_new(&w, T, n));
  OK(GrB_Vector_new(&t, T, n));
  OK(GrB_Vector_new(&tD, T, n));
  assign_scalar(r, 1.0 / (double)n, n);

  int iterations = 0, converged = 0;
  double delta = INFINITY;
  double* deltas = (double*)malloc((size_t)(max_iter > 0 ? max_iter : 1) * sizeof(double));
  while (iterations < max_iter) {
    OK(GrB_eWiseMult(tD, NULL, NULL, TIMES, r, D, NULL));
    const double dsum = sum_of(tD);
    OK(GrB_eWiseMult(w, NULL, NULL, TIMES, r, dinv, NULL));
    assign_scalar(rnew, (1 - damping) / (double)n + damping * dsum / (double)n, n);
    OK(GrB_mxv(rnew, NULL, PLUS, PLUS_SECOND, AT, w, NULL));
    OK(GrB_eWiseAdd(t, NULL, NULL, MINUS, r, rnew, NULL));
    OK(GrB_apply(t, NULL, NULL, ABS, t, NULL));
    delta = sum_of(t);
    deltas[iterations++] = delta;
    GrB_Vector tmp = r;
    r = rnew;
    rnew = tmp;
    if (delta <= tol) {
      converged = 1;
      break;
    }
  }
  const double t2 = bench_now();

  double* x = (double*)calloc(n ? n : 1, sizeof(double));
  GrB_Index nv = n;
  GrB_Index* idx = (GrB_Index*)malloc((n ? n : 1) * sizeof(GrB_Index));
  OK(GrB_Vector_extractTuples_FP64(idx, x, &nv, r));
  if (nv != n) bench_die("graphblas_pagerank", "rank vector is not full");
  double sum = 0;
  for (GrB_Index i = 0; i < n; ++i) sum += x[i];
  if (out) write_vector(out, &el, x);
  int nthreads = 0;
  OK(GxB_Global_Option_get(GxB_NTHREADS, &nthreads));
  printf(
      "{\"tool\": \"graphblas\", \"precision\": \"%s\", \"pages\": %u, \"input_links\": %zu, "
      "\"links\": %llu, \"dangling_pages\": %llu, \"damping\": %g, \"tol\": %g, "
      "\"load_seconds\": %.6f, \"rank_seconds\": %.6f, \"iterations\": %d, \"converged\": %s, "
      "\"final_delta\": %.17g, \"sum\": %.17g, \"threads\": %d, \"graphblas_version\": "
      "\"%d.%d.%d\", \"deltas\": [",
      is_float ? "float" : "double", el.pages, el.links, (unsigned long long)links,
      (unsigned long long)dangling_pages, damping, tol, t1 - t0, t2 - t1, iterations,
      converged ? "true" : "false", delta, sum, nthreads, GxB_IMPLEMENTATION_MAJOR,
      GxB_IMPLEMENTATION_MINOR, GxB_IMPLEMENTATION_SUB);
  for (int i = 0; i < iterations; ++i) printf("%s%.6g", i ? ", " : "", deltas[i]);
  printf("]}\n");
  free(x);
  free(idx);
  free(deltas);
  GrB_free(&AT);
  GrB_free(&D);
  GrB_free(&dinv);
  GrB_free(&r);
  GrB_free(&rnew);
  GrB_free(&w);
  GrB_free(&t);
  GrB_free(&tD);
  edgelist_free(&el);
  GrB_finalize();
  return converged ? 0 : 3;
}
