/* SPDX-License-Identifier: Apache-2.0
 * Smoke test for the stubs: a function that is not implemented yet reports
 * "Not implemented: <name>" through errptr (replacing an older message, tolerating a NULL
 * errptr), functions without errptr return their neutral value, and destroy functions accept
 * NULL. Linked against libsolistore.so by `cargo x abi-check`; exits 0 on success. Uses only
 * functions expected to stay stubs for a while (backup engine,
 * transactions). */
#include <rocksdb/c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define EXPECT(cond)                                                   \
  do {                                                                 \
    if (!(cond)) {                                                     \
      fprintf(stderr, "%s:%d expected: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                      \
    }                                                                  \
  } while (0)

/* Checks that `err` is exactly "Not implemented: <name>", then frees it. */
static void expect_not_implemented(char* err, const char* name) {
  const char* prefix = "Not implemented: ";
  EXPECT(err != NULL);
  if (err == NULL) return;
  EXPECT(strncmp(err, prefix, strlen(prefix)) == 0);
  EXPECT(strcmp(err + strlen(prefix), name) == 0);
  rocksdb_free(err);
}

int main(void) {
  char* err = NULL;

  rocksdb_backup_engine_t* be = rocksdb_backup_engine_open(NULL, "/nonexistent", &err);
  EXPECT(be == NULL);
  expect_not_implemented(err, "rocksdb_backup_engine_open");

  /* An older message is freed and replaced (c.h convention 3). */
  err = malloc(8);
  EXPECT(err != NULL);
  if (err != NULL) strcpy(err, "old");
  EXPECT(rocksdb_transactiondb_checkpoint_object_create(NULL, &err) == NULL);
  expect_not_implemented(err, "rocksdb_transactiondb_checkpoint_object_create");

  /* A NULL errptr is tolerated. */
  EXPECT(rocksdb_transactiondb_checkpoint_object_create(NULL, NULL) == NULL);

  err = NULL;
  EXPECT(rocksdb_transactiondb_open(NULL, NULL, "/nonexistent", &err) == NULL);
  expect_not_implemented(err, "rocksdb_transactiondb_open");

  err = NULL;
  rocksdb_backup_engine_create_new_backup(NULL, NULL, &err);
  expect_not_implemented(err, "rocksdb_backup_engine_create_new_backup");

  /* Multi-gets report per key and fill every output entry. */
  {
    const char* keys[2] = {"a", "b"};
    size_t key_sizes[2] = {1, 1};
    char* values[2] = {(char*)keys[0], (char*)keys[1]};
    size_t value_sizes[2] = {5, 5};
    char* errs[2] = {NULL, NULL};
    rocksdb_transactiondb_multi_get(NULL, NULL, 2, keys, key_sizes, values, value_sizes, errs);
    EXPECT(values[0] == NULL && values[1] == NULL);
    EXPECT(value_sizes[0] == 0 && value_sizes[1] == 0);
    expect_not_implemented(errs[0], "rocksdb_transactiondb_multi_get");
    expect_not_implemented(errs[1], "rocksdb_transactiondb_multi_get");
  }

  /* Without errptr: neutral values. */
  EXPECT(rocksdb_backup_engine_options_create("/nonexistent") == NULL);
  EXPECT(rocksdb_property_int(NULL, "rocksdb.estimate-num-keys", NULL) == -1);
  {
    rocksdb_slice_t s = rocksdb_iter_key_slice(NULL);
    EXPECT(s.data == NULL && s.size == 0);
  }

  /* Destroy functions accept NULL. */
  rocksdb_backup_engine_close(NULL);
  rocksdb_backup_engine_options_destroy(NULL);
  rocksdb_checkpoint_object_destroy(NULL);
  rocksdb_transactiondb_options_destroy(NULL);
  rocksdb_pinnableslice_destroy(NULL);
  rocksdb_cache_destroy(NULL);
  rocksdb_list_column_families_destroy(NULL, 0);
  rocksdb_create_column_families_destroy(NULL);
  rocksdb_free(NULL);

  if (failures != 0) {
    fprintf(stderr, "smoke_notimpl: %d failed\n", failures);
    return 1;
  }
  printf("smoke_notimpl: all checks passed\n");
  return 0;
}
