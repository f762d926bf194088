/* SPDX-License-Identifier: Apache-2.0
 * Phase runner, expectation macros and small helpers shared by the tests-c/test_*.c programs.
 *
 * Every program is a list of named phases. Each phase runs in a forked child (so one crash or
 * abort fails only that phase) with its own database directory under a per-program temp dir.
 * A phase passes when its function returns, fails on the first failed EXPECT (or a signal, or
 * the timeout), and is skipped through SKIP(...). main() prints one line per phase and a final
 * summary `<prog>: phases: N passed, M failed, K skipped`; the exit code is 0 iff M == 0.
 *
 * The same sources build against two headers:
 *   - solistore's include/rocksdb/c.h (RocksDB 11.1.2 prototypes), with -DTESTC_HEADER_V11;
 *   - Debian's /usr/include/rocksdb/c.h (RocksDB 7.8.3), without it.
 * Code using functions 7.8.3 lacks sits under `#ifdef TESTC_HEADER_V11`; the phase then
 * SKIPs in the 7.8.3 build. Checks that only solistore promises (strictness beyond RocksDB)
 * test `testc_is_solistore()`, which looks at the library that actually got loaded, so the
 * 7.8.3-built binaries run with libsolistore.so on LD_LIBRARY_PATH (the drop-in check) also
 * run them.
 *
 * Environment: TESTC_TMPDIR (default /tmp) base for scratch dirs; TESTC_KEEP=1 keeps them;
 * TESTC_ONLY=<phase> runs one phase; TESTC_NOFORK=1 runs phases in-process (first failure
 * aborts; for debuggers); TESTC_TIMEOUT=<secs> per phase (default 300). */
#ifndef SOLISTORE_TESTS_C_COMMON_H
#define SOLISTORE_TESTS_C_COMMON_H

#include <rocksdb/c.h>

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Name of the running phase (for failure messages) and the scratch base dir. */
static const char *g_phase = "";
static char g_base[PATH_MAX];
static int g_nofork = 0;
/* Shared with the forked phase: set to 1 when the phase skips. */
static volatile int *g_skip_flag = NULL;

#define TESTC_EXIT_SKIP 77

#define PHASE(name) (g_phase = (name), fprintf(stderr, "== %s\n", g_phase))

/* Fails the running phase: in a forked child this ends the child; in NOFORK mode it aborts. */
static inline void testc_fail_now(void) {
  fflush(stdout);
  fflush(stderr);
  if (g_nofork) abort();
  _exit(1);
}

#define EXPECT(cond)                                                                   \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      fprintf(stderr, "%s:%d [%s] expected: %s\n", __FILE__, __LINE__, g_phase, #cond); \
      testc_fail_now();                                                                \
    }                                                                                  \
  } while (0)

#define EXPECT_NO_ERR(err)                                                             \
  do {                                                                                 \
    if ((err) != NULL) {                                                               \
      fprintf(stderr, "%s:%d [%s] error: %s\n", __FILE__, __LINE__, g_phase, (err));    \
      testc_fail_now();                                                                \
    }                                                                                  \
  } while (0)

/* EXPECT with a printf-style explanation. */
#define EXPECTF(cond, ...)                                                             \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      fprintf(stderr, "%s:%d [%s] expected: %s: ", __FILE__, __LINE__, g_phase, #cond); \
      fprintf(stderr, __VA_ARGS__);                                                    \
      fputc('\n', stderr);                                                             \
      testc_fail_now();                                                                \
    }                                                                                  \
  } while (0)

/* Ends the running phase as skipped. */
#define SKIP(...)                                                       \
  do {                                                                  \
    fprintf(stderr, "[%s] SKIP: ", g_phase);                            \
    fprintf(stderr, __VA_ARGS__);                                       \
    fputc('\n', stderr);                                                \
    testc_skip_now();                                                   \
  } while (0)

/* A skipped phase abandons whatever it had open (often a DB), so it ends by SIGKILL: no atexit
 * handlers, no destructors, and no valgrind leak report for the abandoned objects. The
 * verdict travels through the shared flag. */
static inline void testc_skip_now(void) {
  fflush(stdout);
  fflush(stderr);
  if (g_nofork) {
    fprintf(stderr, "(NOFORK: skip ends the program)\n");
    exit(0);
  }
  if (g_skip_flag != NULL) *g_skip_flag = 1;
  raise(SIGKILL);
  _exit(TESTC_EXIT_SKIP);
}

/* Error expectations. Each consumes the message: frees it and resets the variable to NULL. */
#define EXPECT_ERR_PREFIX(err, prefix)                                                  \
  do {                                                                                  \
    EXPECTF((err) != NULL, "no error, wanted one starting with \"%s\"", (prefix));      \
    EXPECTF(strncmp((err), (prefix), strlen(prefix)) == 0, "error \"%s\" lacks prefix \"%s\"", \
            (err), (prefix));                                                           \
    free(err);                                                                          \
    (err) = NULL;                                                                       \
  } while (0)

#define EXPECT_ERR_EQ(err, text)                                                        \
  do {                                                                                  \
    EXPECTF((err) != NULL, "no error, wanted \"%s\"", (text));                          \
    EXPECTF(strcmp((err), (text)) == 0, "error \"%s\" != \"%s\"", (err), (text));       \
    free(err);                                                                          \
    (err) = NULL;                                                                       \
  } while (0)

#define EXPECT_ERR_CONTAINS(err, sub)                                                   \
  do {                                                                                  \
    EXPECTF((err) != NULL, "no error, wanted one containing \"%s\"", (sub));            \
    EXPECTF(strstr((err), (sub)) != NULL, "error \"%s\" lacks \"%s\"", (err), (sub));   \
    free(err);                                                                          \
    (err) = NULL;                                                                       \
  } while (0)

/* A (pointer, length) pair equals the C string `s` (compared as bytes, without its NUL). */
#define EXPECT_BYTES(ptr, len, s)                                                       \
  do {                                                                                  \
    const char *testc_p_ = (ptr);                                                       \
    size_t testc_l_ = (len);                                                            \
    const char *testc_s_ = (s);                                                         \
    EXPECTF(testc_p_ != NULL, "NULL, wanted \"%s\"", testc_s_);                         \
    EXPECTF(testc_l_ == strlen(testc_s_) && memcmp(testc_p_, testc_s_, testc_l_) == 0,  \
            "got \"%.*s\" (%zu bytes), wanted \"%s\"", (int)testc_l_, testc_p_,         \
            testc_l_, testc_s_);                                                        \
  } while (0)

/* (pointer, length) of a string literal or C string, for key/value arguments. */
#define S(x) (x), strlen(x)

/* ---------------------------------------------------------------- library identity */

/* 1 when the loaded rocksdb_* symbols come from libsolistore (also through a
 * librocksdb.so.7.8 symlink), 0 for real librocksdb. */
static inline int testc_is_solistore(void) {
  static int cached = -1;
  if (cached >= 0) return cached;
  cached = 0;
  void *sym = dlsym(RTLD_DEFAULT, "rocksdb_open");
  Dl_info info;
  if (sym != NULL && dladdr(sym, &info) != 0 && info.dli_fname != NULL) {
    char real[PATH_MAX];
    const char *name = info.dli_fname;
    if (realpath(info.dli_fname, real) != NULL) name = real;
    cached = strstr(name, "solistore") != NULL;
  }
  return cached;
}

static inline const char *testc_library_path(void) {
  static char real[PATH_MAX];
  void *sym = dlsym(RTLD_DEFAULT, "rocksdb_open");
  Dl_info info;
  if (sym == NULL || dladdr(sym, &info) == 0 || info.dli_fname == NULL) return "?";
  if (realpath(info.dli_fname, real) == NULL) return info.dli_fname;
  return real;
}

/* Skips the phase unless the library is solistore (checks RocksDB does not promise). */
#define REQUIRE_SOLISTORE(why)                                                         \
  do {                                                                                 \
    if (!testc_is_solistore()) SKIP("solistore-only check (%s)", (why));               \
  } while (0)

/* Skips the phase in the 7.8.3-header build: it needs functions 7.8.3 lacks. */
#ifdef TESTC_HEADER_V11
#define REQUIRE_V11_HEADER(fns) ((void)0)
#else
#define REQUIRE_V11_HEADER(fns) SKIP("needs %s, not in RocksDB 7.8.3's c.h", (fns))
#endif

/* Skips the phase when solistore reports that the feature is not implemented yet (issue 3:
 * tables, flush, compaction, checkpoints). Real RocksDB must never get here with that text. */
#define SKIP_IF_NOT_IMPLEMENTED(err)                                                    \
  do {                                                                                  \
    if ((err) != NULL && testc_is_solistore() &&                                        \
        strncmp((err), "Not implemented: ", 17) == 0) {                                 \
      SKIP("solistore: %s", (err));                                                     \
    }                                                                                   \
  } while (0)

/* ---------------------------------------------------------------- scratch directories */

static int testc_rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb;
  (void)flag;
  (void)ftw;
  return remove(path);
}

static inline void testc_rm_rf(const char *path) {
  nftw(path, testc_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* A fresh path `<base>/<phase>-<tag>` (not created; removed if present). Returns a static
 * buffer of a small ring, so a few paths can be live at once. */
static inline const char *db_path(const char *tag) {
  static char bufs[8][PATH_MAX];
  static int next = 0;
  char *buf = bufs[next++ % 8];
  char phase[128];
  size_t i;
  for (i = 0; g_phase[i] != '\0' && i + 1 < sizeof phase; i++) {
    char c = g_phase[i];
    phase[i] = (c == '/' || c == ' ') ? '_' : c;
  }
  phase[i] = '\0';
  EXPECT(snprintf(buf, PATH_MAX, "%s/%s-%s", g_base, phase, tag) < PATH_MAX);
  testc_rm_rf(buf);
  return buf;
}

static inline int testc_path_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* ---------------------------------------------------------------- DB helpers */

/* Options with create_if_missing=1 (caller destroys). */
static inline rocksdb_options_t *opts_create(void) {
  rocksdb_options_t *o = rocksdb_options_create();
  EXPECT(o != NULL);
  rocksdb_options_set_create_if_missing(o, 1);
  return o;
}

/* Opens (creating) a DB at `path` with `o`, failing the phase on error. */
static inline rocksdb_t *open_ok(const rocksdb_options_t *o, const char *path) {
  char *err = NULL;
  rocksdb_t *db = rocksdb_open(o, path, &err);
  EXPECT_NO_ERR(err);
  EXPECT(db != NULL);
  return db;
}

/* Opens `path` through rocksdb_open_column_families with only "default" (works on 7.8.3,
 * which lacks rocksdb_get_default_column_family_handle) and returns its handle in `*cf`. */
static inline rocksdb_t *open_default_cf(const rocksdb_options_t *o, const char *path,
                                         rocksdb_column_family_handle_t **cf) {
  const char *names[1] = {"default"};
  const rocksdb_options_t *cf_opts[1] = {o};
  char *err = NULL;
  rocksdb_t *db = rocksdb_open_column_families(o, path, 1, names, cf_opts, cf, &err);
  EXPECT_NO_ERR(err);
  EXPECT(db != NULL);
  EXPECT(*cf != NULL);
  return db;
}

static inline void put_ok(rocksdb_t *db, const rocksdb_writeoptions_t *wo, const char *k,
                          const char *v) {
  char *err = NULL;
  rocksdb_put(db, wo, k, strlen(k), v, strlen(v), &err);
  EXPECT_NO_ERR(err);
}

/* Flushes the memtables of `db` (or of one column family) into tables, waiting for it. */
static inline void flush_cf_ok(rocksdb_t *db, rocksdb_column_family_handle_t *cf) {
  rocksdb_flushoptions_t *fo = rocksdb_flushoptions_create();
  rocksdb_flushoptions_set_wait(fo, 1);
  char *err = NULL;
  if (cf != NULL) rocksdb_flush_cf(db, fo, cf, &err);
  else rocksdb_flush(db, fo, &err);
  EXPECT_NO_ERR(err);
  rocksdb_flushoptions_destroy(fo);
}
#define flush_ok(db) flush_cf_ok((db), NULL)

/* Number of entries of `dir` whose name ends with `suffix` ("" counts "." and ".." too).
 * When `min_links` is non-NULL it receives the smallest hard-link count among them (0 when
 * there are none). */
static inline int count_files(const char *dir, const char *suffix, nlink_t *min_links) {
  DIR *d = opendir(dir);
  EXPECTF(d != NULL, "opendir %s", dir);
  int n = 0;
  size_t sl = strlen(suffix);
  if (min_links != NULL) *min_links = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t l = strlen(e->d_name);
    if (l < sl || strcmp(e->d_name + l - sl, suffix) != 0) continue;
    n++;
    if (min_links != NULL) {
      char p[PATH_MAX];
      snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
      struct stat st;
      EXPECT(stat(p, &st) == 0);
      if (*min_links == 0 || st.st_nlink < *min_links) *min_links = st.st_nlink;
    }
  }
  closedir(d);
  return n;
}

/* get(k) equals `want`, or is absent when `want` is NULL; no error either way. */
#define EXPECT_GET(db, ro, k, want) testc_expect_get(__FILE__, __LINE__, (db), (ro), (k), (want))
static inline void testc_expect_get(const char *file, int line, rocksdb_t *db,
                                    const rocksdb_readoptions_t *ro, const char *k,
                                    const char *want) {
  char *err = NULL;
  size_t len = 12345;
  char *v = rocksdb_get(db, ro, k, strlen(k), &len, &err);
  if (err != NULL) {
    fprintf(stderr, "%s:%d [%s] get(%s) error: %s\n", file, line, g_phase, k, err);
    testc_fail_now();
  }
  if (want == NULL) {
    if (v != NULL) {
      fprintf(stderr, "%s:%d [%s] get(%s) = \"%.*s\", wanted absent\n", file, line, g_phase, k,
              (int)len, v);
      testc_fail_now();
    }
    if (len != 0) {
      fprintf(stderr, "%s:%d [%s] get(%s) absent but vallen=%zu\n", file, line, g_phase, k, len);
      testc_fail_now();
    }
    return;
  }
  if (v == NULL || len != strlen(want) || memcmp(v, want, len) != 0) {
    fprintf(stderr, "%s:%d [%s] get(%s) = %s%.*s%s, wanted \"%s\"\n", file, line, g_phase, k,
            v ? "\"" : "", v ? (int)len : 6, v ? v : "absent", v ? "\"" : "", want);
    testc_fail_now();
  }
  free(v);
}

/* The same, through a column family. */
#define EXPECT_GET_CF(db, ro, cf, k, want) \
  testc_expect_get_cf(__FILE__, __LINE__, (db), (ro), (cf), (k), (want))
static inline void testc_expect_get_cf(const char *file, int line, rocksdb_t *db,
                                       const rocksdb_readoptions_t *ro,
                                       rocksdb_column_family_handle_t *cf, const char *k,
                                       const char *want) {
  char *err = NULL;
  size_t len = 12345;
  char *v = rocksdb_get_cf(db, ro, cf, k, strlen(k), &len, &err);
  if (err != NULL) {
    fprintf(stderr, "%s:%d [%s] get_cf(%s) error: %s\n", file, line, g_phase, k, err);
    testc_fail_now();
  }
  if (want == NULL ? (v != NULL || len != 0)
                   : (v == NULL || len != strlen(want) || memcmp(v, want, len) != 0)) {
    fprintf(stderr, "%s:%d [%s] get_cf(%s) = %s%.*s%s, wanted %s\n", file, line, g_phase, k,
            v ? "\"" : "", v ? (int)len : 6, v ? v : "absent", v ? "\"" : "",
            want ? want : "absent");
    testc_fail_now();
  }
  free(v);
}

/* Iterator's current entry is (k, v). */
#define EXPECT_ITER(it, k, v)                                             \
  do {                                                                    \
    size_t testc_kl_ = 0, testc_vl_ = 0;                                  \
    EXPECTF(rocksdb_iter_valid(it), "iterator invalid, wanted %s", (k));  \
    const char *testc_k_ = rocksdb_iter_key((it), &testc_kl_);            \
    EXPECT_BYTES(testc_k_, testc_kl_, (k));                               \
    if ((v) != NULL) {                                                    \
      const char *testc_v_ = rocksdb_iter_value((it), &testc_vl_);        \
      EXPECT_BYTES(testc_v_, testc_vl_, (v));                             \
    }                                                                     \
  } while (0)

/* ---------------------------------------------------------------- phase runner */

typedef void (*testc_phase_fn)(void);
struct testc_phase {
  const char *name;
  testc_phase_fn fn;
};

/* Runs every phase and prints the summary; returns main()'s exit code. */
static inline int testc_run(const char *prog, const struct testc_phase *phases, size_t n) {
  const char *tmp = getenv("TESTC_TMPDIR");
  const char *only = getenv("TESTC_ONLY");
  const char *timeout_s = getenv("TESTC_TIMEOUT");
  unsigned timeout = timeout_s ? (unsigned)atoi(timeout_s) : 300;
  int passed = 0, failed = 0, skipped = 0;
  g_nofork = getenv("TESTC_NOFORK") != NULL && strcmp(getenv("TESTC_NOFORK"), "0") != 0;
  if (tmp == NULL || *tmp == '\0') tmp = "/tmp";
  snprintf(g_base, sizeof g_base, "%s/solistore-testc-%s-XXXXXX", tmp, prog);
  if (mkdtemp(g_base) == NULL) {
    fprintf(stderr, "%s: mkdtemp(%s): %s\n", prog, g_base, strerror(errno));
    return 2;
  }
  printf("%s: library %s (%s), header %s\n", prog, testc_library_path(),
         testc_is_solistore() ? "solistore" : "rocksdb",
#ifdef TESTC_HEADER_V11
         "solistore include/rocksdb/c.h (11.1.2)"
#else
         "/usr/include/rocksdb/c.h (7.8.3)"
#endif
  );
  fflush(stdout);
  g_skip_flag = mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (g_skip_flag == MAP_FAILED) g_skip_flag = NULL;
  for (size_t i = 0; i < n; i++) {
    int status = 0;
    if (only != NULL && strcmp(only, phases[i].name) != 0) continue;
    g_phase = phases[i].name;
    fprintf(stderr, "== %s\n", g_phase);
    if (g_nofork) {
      phases[i].fn();
      status = 0;
    } else {
      fflush(stdout);
      fflush(stderr);
      if (g_skip_flag != NULL) *g_skip_flag = 0;
      pid_t pid = fork();
      if (pid < 0) {
        fprintf(stderr, "fork: %s\n", strerror(errno));
        return 2;
      }
      if (pid == 0) {
        alarm(timeout);
        phases[i].fn();
        fflush(stdout);
        fflush(stderr);
        exit(0); /* exit, not _exit: lets valgrind/atexit see a normal end */
      }
      int ws = 0;
      while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
      }
      if (g_skip_flag != NULL && *g_skip_flag) {
        status = TESTC_EXIT_SKIP;
      } else if (WIFEXITED(ws)) {
        status = WEXITSTATUS(ws);
      } else if (WIFSIGNALED(ws)) {
        fprintf(stderr, "[%s] killed by signal %d (%s)\n", g_phase, WTERMSIG(ws),
                WTERMSIG(ws) == SIGALRM ? "timeout" : strsignal(WTERMSIG(ws)));
        status = 128 + WTERMSIG(ws);
      }
    }
    const char *verdict = status == 0 ? "PASS" : status == TESTC_EXIT_SKIP ? "SKIP" : "FAIL";
    if (status == 0) passed++;
    else if (status == TESTC_EXIT_SKIP) skipped++;
    else failed++;
    printf("%s %s.%s\n", verdict, prog, phases[i].name);
    fflush(stdout);
  }
  g_phase = "";
  if (getenv("TESTC_KEEP") == NULL) testc_rm_rf(g_base);
  else printf("%s: kept scratch dir %s\n", prog, g_base);
  printf("%s: phases: %d passed, %d failed, %d skipped\n", prog, passed, failed, skipped);
  return failed == 0 ? 0 : 1;
}

#define TESTC_MAIN(prog, ...)                                                \
  int main(void) {                                                           \
    static const struct testc_phase phases[] = {__VA_ARGS__};                \
    return testc_run((prog), phases, sizeof phases / sizeof phases[0]);     \
  }

#define P(fn) {#fn, fn}

#endif /* SOLISTORE_TESTS_C_COMMON_H */
