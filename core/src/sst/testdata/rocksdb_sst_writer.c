/* SPDX-License-Identifier: Apache-2.0 */
/* Writes block-based tables with librocksdb for solistore's SST reader tests.
 *
 *   rocksdb_sst_writer db <dir> <compression:0|1|4> <checksum:1|4>
 *     opens a DB with a 10-bit Bloom filter, 1 KiB blocks, the uint64add merge operator,
 *     writes puts/deletes/merges/a range deletion, flushes once and closes: <dir> holds one .sst.
 *   rocksdb_sst_writer sstfile <path> <compression> [hash]
 *     writes an external SST file with SstFileWriter (all sequence numbers 0); with hash 1,
 *     its data blocks carry the data-block hash index (kDataBlockBinaryAndHash).
 */
#include <rocksdb/c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(err)                                                   \
  do {                                                               \
    if ((err) != NULL) {                                             \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, (err));     \
      exit(1);                                                       \
    }                                                                \
  } while (0)

/* Data block index type of the tables make_options describes (0: binary search). */
static int data_block_index_type = 0;

static rocksdb_options_t *make_options(int compression, int checksum) {
  rocksdb_options_t *o = rocksdb_options_create();
  rocksdb_options_set_create_if_missing(o, 1);
  rocksdb_options_set_compression(o, compression);
  rocksdb_options_set_disable_auto_compactions(o, 1);
  rocksdb_options_set_uint64add_merge_operator(o);
  rocksdb_block_based_table_options_t *t = rocksdb_block_based_options_create();
  rocksdb_block_based_options_set_block_size(t, 1024);
  rocksdb_block_based_options_set_checksum(t, (char)checksum);
  rocksdb_block_based_options_set_data_block_index_type(t, data_block_index_type);
  rocksdb_block_based_options_set_filter_policy(
      t, rocksdb_filterpolicy_create_bloom_full(10));
  rocksdb_options_set_block_based_table_factory(o, t);
  rocksdb_block_based_options_destroy(t);
  return o;
}

static void write_db(const char *dir, int compression, int checksum) {
  char *err = NULL;
  rocksdb_options_t *o = make_options(compression, checksum);
  rocksdb_t *db = rocksdb_open(o, dir, &err);
  CHECK(err);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_writeoptions_disable_WAL(wo, 1);
  char key[64], val[128];
  for (int i = 0; i < 3000; i++) {
    snprintf(key, sizeof key, "user%06d", i);
    snprintf(val, sizeof val, "value-%d-%s", i, (i % 3) ? "abcabcabcabcabcabc" : "x");
    rocksdb_put(db, wo, key, strlen(key), val, strlen(val), &err);
    CHECK(err);
    if (i % 7 == 0) { /* a second, newer version */
      rocksdb_put(db, wo, key, strlen(key), "v2", 2, &err);
      CHECK(err);
    }
    if (i % 13 == 0) {
      rocksdb_delete(db, wo, key, strlen(key), &err);
      CHECK(err);
    }
    if (i % 17 == 0) {
      char one[8] = {1, 0, 0, 0, 0, 0, 0, 0};
      snprintf(key, sizeof key, "merge%06d", i);
      rocksdb_merge(db, wo, key, strlen(key), one, 8, &err);
      CHECK(err);
    }
  }
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  rocksdb_writebatch_delete_range(b, "user000100", 10, "user000200", 10);
  rocksdb_writebatch_delete_range(b, "user000150", 10, "user000300", 10);
  rocksdb_write(db, wo, b, &err);
  CHECK(err);
  rocksdb_writebatch_destroy(b);
  rocksdb_flushoptions_t *fo = rocksdb_flushoptions_create();
  rocksdb_flushoptions_set_wait(fo, 1);
  rocksdb_flush(db, fo, &err);
  CHECK(err);
  rocksdb_flushoptions_destroy(fo);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_close(db);
  rocksdb_options_destroy(o);
}

static void write_sstfile(const char *path, int compression) {
  char *err = NULL;
  rocksdb_options_t *o = make_options(compression, 4);
  rocksdb_envoptions_t *eo = rocksdb_envoptions_create();
  rocksdb_sstfilewriter_t *w = rocksdb_sstfilewriter_create(eo, o);
  rocksdb_sstfilewriter_open(w, path, &err);
  CHECK(err);
  char key[64], val[64];
  for (int i = 0; i < 2000; i++) {
    snprintf(key, sizeof key, "ext%06d", i);
    snprintf(val, sizeof val, "external-%d", i);
    if (i % 10 == 9) {
      rocksdb_sstfilewriter_delete(w, key, strlen(key), &err);
    } else {
      rocksdb_sstfilewriter_put(w, key, strlen(key), val, strlen(val), &err);
    }
    CHECK(err);
  }
  rocksdb_sstfilewriter_finish(w, &err);
  CHECK(err);
  rocksdb_sstfilewriter_destroy(w);
  rocksdb_envoptions_destroy(eo);
  rocksdb_options_destroy(o);
}

int main(int argc, char **argv) {
  if (argc >= 5 && strcmp(argv[1], "db") == 0) {
    write_db(argv[2], atoi(argv[3]), atoi(argv[4]));
    return 0;
  }
  if (argc >= 4 && strcmp(argv[1], "sstfile") == 0) {
    if (argc >= 5) data_block_index_type = atoi(argv[4]);
    write_sstfile(argv[2], atoi(argv[3]));
    return 0;
  }
  fprintf(stderr, "usage: %s db <dir> <compression> <checksum> | sstfile <path> <compression> [hash]\n",
          argv[0]);
  return 2;
}
