// SPDX-License-Identifier: Apache-2.0
// Kahuna's RocksDbPersistenceBackend (Kahuna 1.2.8, Kahuna.Core/Persistence/Backend/
// RocksDbPersistenceBackend.cs) replayed through the RocksDbSharp shapes: column families
// default, kv, locks sharing one block-based table configuration (LRU cache, full bloom filter,
// index/filter blocks cached and pinned); sync writes; "~CURRENT"/"~<rev>"/"~NOREV" keys;
// scans from an empty prefix with fill_cache off; multi_get_cf; the PITR checkpoint (save, move,
// reopen with create_if_missing 0, trim with batches while iterating, compact_range_cf(NULL)),
// after which no file holds the trimmed bytes; finalizer-order disposal; reopen; a cache and
// write buffer manager shared with a Kommander WAL.
using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.CompilerServices;
using System.Text;
using NUnit.Framework;
using N = Solistore.Tests.Hosts.RocksDbSharpNative;

namespace Solistore.Tests.Hosts
{
    // Inside the namespace, so that these names win over the binding's own Solistore.* types.
    using Solistore.Tests.Hosts.Sharp;

    /// <summary>The native side of Kahuna's RocksDbPersistenceBackend.</summary>
    public sealed class KahunaBackend : IDisposable
    {
        // RocksDbPersistenceBackend.cs:71-89: every write is sync; maintenance scans skip the cache;
        // one static 256 MiB LRU cache.
        static readonly WriteOptions DefaultWriteOptions = new WriteOptions().SetSync(true);
        public static readonly ReadOptions MaintenanceReadOptions = new ReadOptions().SetFillCache(false);
        static readonly Cache StaticCache = Cache.CreateLru(256UL << 20);

        public readonly RocksDb Db;
        public readonly ColumnFamilyHandle Default, Kv, Locks;

        public KahunaBackend(string path, SharedBundle bundle = null, bool enableStatistics = false)
        {
            int ncpu = Environment.ProcessorCount;
            var dbOptions = new DbOptions().SetCreateIfMissing(true).SetCreateMissingColumnFamilies(true)
                .SetWalRecoveryMode(Recovery.AbsoluteConsistency).IncreaseParallelism(Math.Max(2, ncpu))
                .SetMaxBackgroundFlushes(2).SetMaxBackgroundCompactions(Math.Max(2, ncpu / 2));
            if (enableStatistics)
            {
                dbOptions.EnableStatistics();
                N.rocksdb_options_set_stats_dump_period_sec(dbOptions.Handle, 60);
            }
            dbOptions.SetUseDirectReads(true);
            if (bundle != null) N.rocksdb_options_set_write_buffer_manager(dbOptions.Handle, bundle.Wbm);
            var table = new BlockBasedTableOptions().SetBlockCache(bundle != null ? bundle.Cache : StaticCache)
                .SetFilterPolicy(N.rocksdb_filterpolicy_create_bloom_full(10))
                .SetCacheIndexAndFilterBlocks(true).SetPinL0FilterAndIndexBlocksInCache(true).SetWholeKeyFiltering(true);
            var kv = new ColumnFamilyOptions().SetBlockBasedTableFactory(table).SetWriteBufferSize(64UL << 20)
                .SetMaxWriteBufferNumber(3).SetMinWriteBufferNumberToMerge(1);
            var locks = new ColumnFamilyOptions().SetBlockBasedTableFactory(table).SetWriteBufferSize(8UL << 20)
                .SetMaxWriteBufferNumber(2).SetMinWriteBufferNumberToMerge(1);
            Db = RocksDb.Open(dbOptions, path, new ColumnFamilies { { "kv", kv }, { "locks", locks } });
            Default = Db.GetColumnFamily("default");
            Kv = Db.GetColumnFamily("kv");
            Locks = Db.GetColumnFamily("locks");
        }

        KahunaBackend(RocksDb db)
        {
            Db = db;
            Default = Db.GetColumnFamily("default");
            Kv = Db.GetColumnFamily("kv");
            Locks = Db.GetColumnFamily("locks");
        }

        /// <summary>The checkpoint copy's open (:1654): no creation of anything, default recovery.</summary>
        public static KahunaBackend OpenExisting(string path)
        {
            var o = new DbOptions().SetCreateIfMissing(false).SetCreateMissingColumnFamilies(false);
            return new KahunaBackend(RocksDb.Open(o, path, new ColumnFamilies { { "kv", new ColumnFamilyOptions() }, { "locks", new ColumnFamilyOptions() } }));
        }

        public void Dispose() { Db.Dispose(); }

        public static byte[] B(string s) { return Encoding.UTF8.GetBytes(s); }

        public void Put(ColumnFamilyHandle cf, byte[] key, byte[] value)
        {
            using (var b = new WriteBatch())
            {
                b.Put(new ReadOnlySpan<byte>(key), new ReadOnlySpan<byte>(value), cf);
                Db.Write(b, DefaultWriteOptions);
            }
        }

        /// <summary>A key-value revision: "<key>~CURRENT" and "<key>~<revision>", one sync batch.</summary>
        public void Set(string key, long revision, string value)
        {
            using (var b = new WriteBatch())
            {
                b.Put(B(key + "~CURRENT"), B(value), Kv);
                b.Put(B(key + "~" + revision.ToString("D10")), B(value), Kv);
                Db.Write(b, DefaultWriteOptions);
            }
        }

        public string Get(ColumnFamilyHandle cf, string key)
        {
            byte[] v = Db.Get(B(key), cf);
            return v == null ? null : Encoding.UTF8.GetString(v);
        }

        /// <summary>GetKeyValueByRange: Seek(prefix) (an empty span for no prefix), collect the
        /// "~CURRENT" keys while the prefix matches.</summary>
        public List<string> ScanCurrent(string prefix)
        {
            byte[] p = B(prefix);
            var found = new List<string>();
            using (var it = Db.NewIterator(Kv, MaintenanceReadOptions))
            {
                it.Seek(prefix.Length == 0 ? ReadOnlySpan<byte>.Empty : new ReadOnlySpan<byte>(p));
                for (; it.Valid(); it.Next())
                {
                    ReadOnlySpan<byte> k = it.GetKeySpan();
                    if (!k.StartsWith(new ReadOnlySpan<byte>(p))) break;
                    string key = Bytes.Str(k);
                    if (key.EndsWith("~CURRENT", StringComparison.Ordinal)) found.Add(key.Substring(0, key.Length - 8));
                }
            }
            return found;
        }
    }

    [TestFixture]
    public class KahunaReplayTests
    {
        Scratch _dir;

        [SetUp] public void SetUp() { _dir = new Scratch("kahuna"); }

        [TearDown]
        public void TearDown()
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
            _dir.Cleanup();
        }

        static byte[] B(string s) { return KahunaBackend.B(s); }

        [Test]
        public void Backend_RevisionsScansMultiGetAndReopen()
        {
            string dir = _dir.Path("kahuna");
            Directory.CreateDirectory(dir);
            string path = Path.Combine(dir, "rev1");
            var h = new KahunaBackend(path, null, enableStatistics: true);
            h.Set("users/alice", 1, "a1");
            h.Set("users/alice", 2, "a2");
            h.Set("users/bob", 1, "b1");
            h.Set("config", 7, "c7");
            h.Put(h.Kv, B("empty~CURRENT"), new byte[0]); // an empty value from an empty span
            h.Put(h.Locks, B("lock/x"), B("owner=1"));
            h.Put(h.Kv, B("users/bob~NOREV"), new byte[0]);
            byte[] floorKey = B("\0pitr_pruned_history_floor");
            h.Put(h.Default, floorKey, B("12345"));
            h.Put(h.Default, B(" durability_floor_" + System.Diagnostics.Process.GetCurrentProcess().Id), B("99"));
            for (int round = 0; round < 2; round++)
            {
                Assert.AreEqual("a2", h.Get(h.Kv, "users/alice~CURRENT"));
                Assert.AreEqual("a1", h.Get(h.Kv, "users/alice~0000000001"));
                Assert.IsNull(h.Get(h.Kv, "users/carol~CURRENT"));
                Assert.AreEqual("owner=1", h.Get(h.Locks, "lock/x"));
                Assert.IsNull(h.Get(h.Kv, "lock/x"), "column families are separate");
                byte[] empty = h.Db.Get(B("empty~CURRENT"), h.Kv);
                Assert.IsNotNull(empty, "present and empty is not null");
                Assert.AreEqual(0, empty.Length);
                Assert.AreEqual("12345", Bytes.Str(h.Db.Get(floorKey, h.Default)));
                CollectionAssert.AreEqual(new[] { "config", "empty", "users/alice", "users/bob" }, h.ScanCurrent(""));
                CollectionAssert.AreEqual(new[] { "users/alice", "users/bob" }, h.ScanCurrent("users/"));
                using (var it = h.Db.NewIterator(h.Kv))
                {
                    // "~0..." < "~CURRENT" < "~NOREV": a key's history and markers are contiguous.
                    it.Seek(B("users/bob~"));
                    Assert.AreEqual("users/bob~0000000001", Bytes.Str(it.GetKeySpan()));
                    Assert.AreEqual("b1", Bytes.Str(it.GetValueSpan()));
                    it.Next();
                    Assert.AreEqual("users/bob~CURRENT", Bytes.Str(it.Key()));
                    it.Next();
                    Assert.AreEqual("users/bob~NOREV", Bytes.Str(it.Key()));
                    Assert.AreEqual(0, it.GetValueSpan().Length);
                }
                var keys = new[] { B("users/bob~CURRENT"), B("nope"), B("users/alice~CURRENT"), B("empty~CURRENT"), B("config~CURRENT") };
                var got = h.Db.MultiGet(keys, new[] { h.Kv, h.Kv, h.Kv, h.Kv, h.Kv });
                Assert.AreEqual("b1", Bytes.Str(got[0].Value));
                Assert.IsNull(got[1].Value);
                Assert.AreEqual("a2", Bytes.Str(got[2].Value));
                Assert.IsNotNull(got[3].Value);
                Assert.AreEqual(0, got[3].Value.Length);
                Assert.AreEqual("c7", Bytes.Str(got[4].Value));
                for (int i = 0; i < keys.Length; i++) Assert.AreSame(keys[i], got[i].Key);
                h.Dispose();
                h = new KahunaBackend(path);
            }
            h.Db.Remove(B("lock/x"), h.Locks);
            using (var b = new WriteBatch())
            {
                b.Delete(B("users/alice~CURRENT"), h.Kv);
                b.Delete(B("users/alice~0000000001"), h.Kv);
                b.Delete(B("users/alice~0000000002"), h.Kv);
                h.Db.Write(b);
            }
            h.Dispose();
            // The checkpoint-style reopen (create_if_missing = create_missing_column_families = 0).
            h = KahunaBackend.OpenExisting(path);
            Assert.IsNull(h.Get(h.Locks, "lock/x"));
            Assert.IsNull(h.Get(h.Kv, "users/alice~CURRENT"));
            Assert.AreEqual("b1", h.Get(h.Kv, "users/bob~CURRENT"));
            h.Db.Put(B("raw"), B("1"), h.Kv); // TestPitrPrunedHistoryFloor's raw Put
            h.Dispose();
            // On a directory without a database that open fails cleanly.
            var e = Assert.Throws<RocksDbException>(() => KahunaBackend.OpenExisting(_dir.Path("no-db")));
            StringAssert.Contains("does not exist", e.Message);
        }

        [Test]
        public void Backend_LargeValuesAndMultiGet()
        {
            string path = _dir.Path("db");
            var h = new KahunaBackend(path);
            var big = new byte[3 << 20];
            for (int i = 0; i < big.Length; i++) big[i] = (byte)(i * 31 + (i >> 11));
            h.Put(h.Kv, B("big"), big);
            const int n = 200;
            for (int i = 0; i < n; i += 2) h.Put(h.Kv, B("k" + i.ToString("D4")), B("v" + i.ToString("D4")));
            var keys = new byte[n + 1][];
            var cfs = new ColumnFamilyHandle[n + 1];
            for (int i = 0; i < n; i++) { keys[i] = B("k" + (n - 1 - i).ToString("D4")); cfs[i] = h.Kv; }
            keys[n] = B("big");
            cfs[n] = h.Kv;
            var got = h.Db.MultiGet(keys, cfs);
            for (int i = 0; i < n; i++)
            {
                int k = n - 1 - i;
                if (k % 2 == 0) Assert.AreEqual("v" + k.ToString("D4"), Bytes.Str(got[i].Value));
                else Assert.IsNull(got[i].Value);
            }
            Bytes.AssertSame(big, got[n].Value);
            h.Dispose();
            h = new KahunaBackend(path);
            Bytes.AssertSame(big, h.Db.Get(B("big"), h.Kv));
            h.Dispose();
        }

        [Test]
        public void Pitr_CheckpointTrimCompact_PurgesPostCutBytes()
        {
            // TestPitrCheckpoint.RocksDb_CreateCheckpointAsOf_PhysicallyPurgesPostCutBytes.
            byte[] preCut = B("PRECUT-7f3a91c2e4b85d06-sentinel");
            byte[] postCut = B("POSTCUT-c81e5a2f9d0b7346-must-vanish");
            var h = new KahunaBackend(_dir.Path("src"));
            h.Put(h.Kv, B("a~0000000001"), preCut);
            for (int i = 0; i < 200; i++) h.Put(h.Kv, B("b~" + (i + 2).ToString("D10")), postCut);
            h.Put(h.Locks, B("lock/y"), preCut);
            string tmp = _dir.Path("checkpoint.tmp");
            using (var cp = h.Db.Checkpoint()) cp.Save(tmp, 0);
            Assert.IsTrue(Directory.Exists(tmp));
            using (var cp = h.Db.Checkpoint())
            {
                var e = Assert.Throws<RocksDbException>(() => cp.Save(tmp, 0));
                Assert.AreEqual("Invalid argument: Directory exists", e.Message);
            }
            h.Put(h.Kv, B("after-checkpoint"), B("1")); // the source stays open and usable
            File.WriteAllText(Path.Combine(tmp, "checkpoint.manifest"), "{\"cut\": 1}\n");
            string copyPath = _dir.Path("checkpoint");
            Directory.Move(tmp, copyPath);
            var copy = KahunaBackend.OpenExisting(copyPath);
            Assert.AreEqual(Bytes.Str(preCut), copy.Get(copy.Kv, "a~0000000001"));
            Assert.IsNull(copy.Get(copy.Kv, "after-checkpoint"));
            // Trim: walk kv deleting post-cut revisions, writing the batch whenever it is large
            // (FlushIfLarge), while the iterator is still open on the same family.
            int deleted = 0, pending = 0;
            var batch = new WriteBatch();
            using (var it = copy.Db.NewIterator(copy.Kv))
            {
                for (it.SeekToFirst(); it.Valid(); it.Next())
                {
                    byte[] k = it.Key();
                    if (k.Length > 2 && k[0] == (byte)'b')
                    {
                        batch.Delete(k, copy.Kv);
                        deleted++;
                        if (++pending >= 32)
                        {
                            copy.Db.Write(batch);
                            batch.Dispose();
                            batch = new WriteBatch();
                            pending = 0;
                        }
                    }
                }
            }
            copy.Db.Write(batch);
            batch.Dispose();
            Assert.AreEqual(200, deleted);
            copy.Db.CompactRange(null, null, copy.Kv);
            copy.Db.CompactRange(null, null, copy.Locks);
            Assert.IsNull(copy.Get(copy.Kv, "b~0000000002"));
            Assert.AreEqual(Bytes.Str(preCut), copy.Get(copy.Locks, "lock/y"));
            copy.Dispose();
            int scanned;
            var withPost = Bytes.FilesContaining(copyPath, postCut, out scanned);
            Assert.IsEmpty(withPost, "files of the trimmed checkpoint still holding post-cut bytes");
            var withPre = Bytes.FilesContaining(copyPath, preCut, out scanned);
            Assert.IsNotEmpty(withPre, "the pre-cut sentinel is stored literally in one of the " + scanned + " files");
            Assert.IsTrue(File.Exists(Path.Combine(copyPath, "checkpoint.manifest")), "the foreign file is left alone");
            // The source still has everything.
            Assert.AreEqual(Bytes.Str(postCut), h.Get(h.Kv, "b~0000000100"));
            Assert.AreEqual("1", h.Get(h.Kv, "after-checkpoint"));
            h.Dispose();
            var reopened = KahunaBackend.OpenExisting(copyPath);
            Assert.AreEqual(Bytes.Str(preCut), reopened.Get(reopened.Kv, "a~0000000001"));
            Assert.IsNull(reopened.Get(reopened.Kv, "b~0000000150"));
            reopened.Dispose();
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static void OpenWriteAbandon(string path, int round)
        {
            // No Dispose: the RocksDb finalizer destroys the CF handles and closes, while the
            // finalizers of the options, table options, cache and read/write options run in
            // whatever order the GC picks.
            var h = new KahunaBackend(path);
            h.Set("round", round, "r" + round);
            var ro = new ReadOptions().SetFillCache(false);
            using (var it = h.Db.NewIterator(h.Kv, ro)) it.SeekToFirst();
            var wo = new WriteOptions().SetSync(false);
            h.Db.Put(B("unsynced-" + round), B("x"), h.Kv, wo);
            var cache = Cache.CreateLru(1 << 20);
            var table = new BlockBasedTableOptions().SetBlockCache(cache);
            new ColumnFamilyOptions().SetBlockBasedTableFactory(table);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static void OpenWriteDispose(string path, int round)
        {
            // Dispose first; the option objects are finalized long after the close.
            var h = new KahunaBackend(path);
            h.Set("round", round, "r" + round);
            h.Dispose();
        }

        [Test]
        public void Disposal_InFinalizerOrder_ThenReopen()
        {
            string path = _dir.Path("db");
            for (int round = 1; round <= 4; round++)
            {
                if (round % 2 == 1) OpenWriteAbandon(path, round);
                else OpenWriteDispose(path, round);
                GC.Collect();
                GC.WaitForPendingFinalizers();
                GC.Collect();
                GC.WaitForPendingFinalizers();
            }
            var h = new KahunaBackend(path);
            Assert.AreEqual("r4", h.Get(h.Kv, "round~CURRENT"));
            for (int r = 1; r <= 4; r++) Assert.AreEqual("r" + r, h.Get(h.Kv, "round~" + r.ToString("D10")));
            Assert.AreEqual("x", h.Get(h.Kv, "unsynced-1"));
            Assert.AreEqual("x", h.Get(h.Kv, "unsynced-3"));
            h.Dispose();
        }

        [Test]
        public void SharedBundle_BackendAndWal_BothDriveTheBudget_BundleDisposedFirst()
        {
            SharedBundle bundle;
            try { bundle = new SharedBundle(64UL << 20); }
            catch (EntryPointNotFoundException e)
            {
                Engine.IgnoreIfMissingOnRocksDb(e, "rocksdb_write_buffer_manager_create_with_cache");
                throw;
            }
            var backend = new KahunaBackend(_dir.Path("kv"), bundle);
            string walDir = _dir.Path("wal");
            Posix.MkDir0700(walDir);
            var wal = new KommanderWal(Path.Combine(walDir, "rev1"), bundle);
            var value = new byte[1024];
            new Random(7).NextBytes(value);
            ulong u0 = bundle.MemtableMemoryUsage;
            var wo = new WriteOptions().SetSync(false);
            for (int i = 0; i < 300; i++) backend.Db.Put(B("kv-" + i.ToString("D5")), value, backend.Kv, wo);
            ulong u1 = bundle.MemtableMemoryUsage;
            Assert.That(u1, Is.GreaterThan(u0), "Backend_WithSharedBundle_ChargesSharedMemtableBudget");
            for (long id = 1; id <= 300; id++) wal.Append(3, id, false);
            ulong u2 = bundle.MemtableMemoryUsage;
            Assert.That(u2, Is.GreaterThan(u1), "the WAL's writes are charged to the same budget");
            // DisposeOrder_BundleFirst_ThenDatabases_DoesNotCrash.
            bundle.Dispose();
            GC.Collect();
            GC.WaitForPendingFinalizers();
            backend.Set("after-bundle", 1, "ok");
            wal.Append(3, 301, true);
            Assert.AreEqual("ok", backend.Get(backend.Kv, "after-bundle~CURRENT"));
            CollectionAssert.AreEqual(value, backend.Db.Get(B("kv-00299"), backend.Kv));
            Assert.AreEqual(301, wal.LastId(3));
            wal.Dispose();
            backend.Dispose();
        }
    }
}
