// SPDX-License-Identifier: Apache-2.0
// Kommander's RocksDbWAL (Kommander 1.2.12, Kommander/WAL/RocksDbWAL.cs and
// RocksDbSharedResources.cs) replayed through the RocksDbSharp shapes: column families default,
// metadata, shard0..7 with the WAL's options; log entries as batches spanning shardN and
// metadata, synced and unsynced, from several threads; SeekToLastPartitionKey (Seek(p + ';'),
// then Prev, else SeekToLast); range reads; GetTermAt through a span deserializer; compaction by
// deleting old entries; reopen; a shared cache and write buffer manager across two WALs.
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading;
using NUnit.Framework;
using N = Solistore.Tests.Hosts.RocksDbSharpNative;

namespace Solistore.Tests.Hosts
{
    // Inside the namespace, so that these names win over the binding's own Solistore.* types.
    using Solistore.Tests.Hosts.Sharp;

    /// <summary>RocksDbSharedResources: one LRU cache and one write buffer manager (allow_stall 0).</summary>
    public sealed class SharedBundle
    {
        public readonly Cache Cache;
        public IntPtr Wbm;

        /// <summary>Throws EntryPointNotFoundException on a library without the WBM functions.</summary>
        public SharedBundle(ulong totalBytes)
        {
            Cache = Cache.CreateLru(totalBytes);
            Wbm = N.rocksdb_write_buffer_manager_create_with_cache((UIntPtr)(totalBytes / 2), Cache.Handle, 0);
        }

        public ulong MemtableMemoryUsage { get { return (ulong)N.rocksdb_write_buffer_manager_memory_usage(Wbm); } }

        public void Dispose()
        {
            N.rocksdb_write_buffer_manager_destroy(Wbm);
            Wbm = IntPtr.Zero;
            Cache.DestroyNow();
        }
    }

    /// <summary>GetTermAt's ISpanDeserializer&lt;(bool, long)&gt;: reads the term in place.</summary>
    public struct TermAt
    {
        public bool Found;
        public long Term;
    }

    public sealed class TermDeserializer : ISpanDeserializer<TermAt>
    {
        public static readonly TermDeserializer Instance = new TermDeserializer();

        public TermAt Deserialize(ReadOnlySpan<byte> buffer)
        {
            long term = 0;
            for (int i = 7; i >= 0; i--) term = (term << 8) | buffer[i];
            return new TermAt { Found = true, Term = term };
        }
    }

    /// <summary>The native side of Kommander's RocksDbWAL.</summary>
    public sealed class KommanderWal : IDisposable
    {
        static readonly WriteOptions SyncOn = new WriteOptions().SetSync(true);
        static readonly WriteOptions SyncOff = new WriteOptions().SetSync(false);
        public static readonly string[] Shards = { "shard0", "shard1", "shard2", "shard3", "shard4", "shard5", "shard6", "shard7" };

        public readonly string Path;
        readonly RocksDb _db;
        readonly ColumnFamilyHandle _metadata;
        readonly ColumnFamilyHandle[] _shards = new ColumnFamilyHandle[8];

        public KommanderWal(string path, SharedBundle bundle = null)
        {
            Path = path;
            // WalStoragePaths.EnsureDirectory: <dir>/<revision> exists (mode 0700, empty) before Open.
            if (!Directory.Exists(path)) Posix.MkDir0700(path);
            var dbOptions = new DbOptions().SetCreateIfMissing(true).SetCreateMissingColumnFamilies(true)
                .SetAllowConcurrentMemtableWrite(true).SetWalRecoveryMode(Recovery.AbsoluteConsistency);
            BlockBasedTableOptions table = null;
            if (bundle != null)
            {
                N.rocksdb_options_set_write_buffer_manager(dbOptions.Handle, bundle.Wbm);
                table = new BlockBasedTableOptions().SetBlockCache(bundle.Cache);
            }
            var families = new ColumnFamilies(Cf(table));
            families.Add("metadata", Cf(table));
            foreach (var s in Shards) families.Add(s, Cf(table));
            _db = RocksDb.Open(dbOptions, path, families);
            _metadata = _db.GetColumnFamily("metadata");
            for (int i = 0; i < 8; i++) _shards[i] = _db.GetColumnFamily(Shards[i]);
        }

        static ColumnFamilyOptions Cf(BlockBasedTableOptions table)
        {
            var o = new ColumnFamilyOptions();
            if (table != null) o.SetBlockBasedTableFactory(table);
            return o;
        }

        public void Dispose() { _db.Dispose(); }

        ColumnFamilyHandle ShardOf(int partition) { return _shards[partition % 8]; }

        public static string LogKey(int partition, long id) { return partition.ToString("D10") + ":" + id.ToString("D20"); }

        /// <summary>A log entry: the term (8 bytes, little endian), then a payload.</summary>
        public static byte[] LogValue(int partition, long id)
        {
            byte[] payload = Encoding.UTF8.GetBytes("entry p" + partition + " i" + id);
            var v = new byte[8 + payload.Length];
            BitConverter.GetBytes(id / 10).CopyTo(v, 0);
            payload.CopyTo(v, 8);
            return v;
        }

        /// <summary>Write: the entry into shardN and the checkpoint marker into metadata, one batch.</summary>
        public void Append(int partition, long id, bool sync)
        {
            using (var b = new WriteBatch())
            {
                b.Put(new ReadOnlySpan<byte>(Encoding.UTF8.GetBytes(LogKey(partition, id))), new ReadOnlySpan<byte>(LogValue(partition, id)), ShardOf(partition));
                b.Put(Encoding.UTF8.GetBytes("last-" + partition), Encoding.UTF8.GetBytes(id.ToString()), _metadata);
                _db.Write(b, sync ? SyncOn : SyncOff);
            }
        }

        /// <summary>The single-entry fast path: db.Put(span, span, shard, writeOptions).</summary>
        public void PutSingle(int partition, long id, bool sync)
        {
            _db.Put(new ReadOnlySpan<byte>(Encoding.UTF8.GetBytes(LogKey(partition, id))), new ReadOnlySpan<byte>(LogValue(partition, id)), ShardOf(partition), sync ? SyncOn : SyncOff);
        }

        public void SetMetaData(string key, string value)
        {
            _db.Put(Encoding.UTF8.GetBytes(key), Encoding.UTF8.GetBytes(value), _metadata);
        }

        public string GetMetaData(string key)
        {
            byte[] v = _db.Get(Encoding.UTF8.GetBytes(key), _metadata);
            return v == null ? null : Encoding.UTF8.GetString(v);
        }

        public void RemoveMetaData(string key)
        {
            _db.Remove(Encoding.UTF8.GetBytes(key), _metadata, SyncOn);
        }

        /// <summary>GetTermAt: -1 when the entry is absent.</summary>
        public long GetTermAt(int partition, long id)
        {
            var found = _db.Get(new ReadOnlySpan<byte>(Encoding.UTF8.GetBytes(LogKey(partition, id))), TermDeserializer.Instance, ShardOf(partition));
            return found.Found ? found.Term : -1;
        }

        /// <summary>SeekToLastPartitionKey; the last id of the partition or -1.</summary>
        public long LastId(int partition)
        {
            string prefix = partition.ToString("D10") + ":";
            using (var it = _db.NewIterator(ShardOf(partition)))
            {
                it.Seek(new ReadOnlySpan<byte>(Encoding.UTF8.GetBytes(partition.ToString("D10") + ";")));
                if (it.Valid()) it.Prev();
                else it.SeekToLast();
                if (!it.Valid()) return -1;
                string key = Bytes.Str(it.GetKeySpan());
                return key.Length == 31 && key.StartsWith(prefix, StringComparison.Ordinal) ? long.Parse(key.Substring(11)) : -1;
            }
        }

        /// <summary>ReadLogRange from `from`: the entries of the partition, checked consecutive
        /// and intact; returns the count and the first id (-1 when none).</summary>
        public int Read(int partition, long from, out long first)
        {
            string prefix = partition.ToString("D10") + ":";
            first = -1;
            int n = 0;
            using (var it = _db.NewIterator(ShardOf(partition)))
            {
                for (it.Seek(Encoding.UTF8.GetBytes(LogKey(partition, from))); it.Valid(); it.Next())
                {
                    string key = Bytes.Str(it.GetKeySpan());
                    if (key.Length != 31 || !key.StartsWith(prefix, StringComparison.Ordinal)) break;
                    long id = long.Parse(key.Substring(11));
                    if (first < 0) first = id;
                    Assert.AreEqual(first + n, id, "ids are consecutive");
                    CollectionAssert.AreEqual(LogValue(partition, id), it.GetValueSpan().ToArray(), "value of " + key);
                    n++;
                }
            }
            return n;
        }

        public int ReadFrom(int partition, long from)
        {
            long first;
            int n = Read(partition, from, out first);
            Assert.IsTrue(n == 0 || first == from, "partition " + partition + " range starts at " + first + ", wanted " + from);
            return n;
        }

        /// <summary>CompactLogsOlderThan / truncation: a batch of deletes for ids [from, to].</summary>
        public void DeleteRangeOfIds(int partition, long from, long to, bool sync)
        {
            using (var b = new WriteBatch())
            {
                for (long id = from; id <= to; id++)
                {
                    if (id % 2 == 0) b.Delete(Encoding.UTF8.GetBytes(LogKey(partition, id)), ShardOf(partition));
                    else b.Delete(new ReadOnlySpan<byte>(Encoding.UTF8.GetBytes(LogKey(partition, id))), ShardOf(partition));
                }
                _db.Write(b, sync ? SyncOn : SyncOff);
            }
        }

        public void WriteEmptyBatch()
        {
            using (var b = new WriteBatch()) _db.Write(b, SyncOn);
        }

        /// <summary>A reader thread's scan: every shard's keys strictly increasing (a consistent view).</summary>
        public bool ScanShardsInOrder()
        {
            foreach (var shard in _shards)
            {
                using (var it = _db.NewIterator(shard))
                {
                    byte[] prev = null;
                    for (it.SeekToFirst(); it.Valid(); it.Next())
                    {
                        byte[] k = it.Key();
                        if (prev != null && Compare(prev, k) >= 0) return false;
                        prev = k;
                    }
                }
            }
            return true;
        }

        static int Compare(byte[] a, byte[] b)
        {
            int n = Math.Min(a.Length, b.Length);
            for (int i = 0; i < n; i++) if (a[i] != b[i]) return a[i] - b[i];
            return a.Length - b.Length;
        }
    }

    [TestFixture]
    public class KommanderReplayTests
    {
        Scratch _dir;

        [SetUp] public void SetUp() { _dir = new Scratch("kommander"); }

        [TearDown]
        public void TearDown()
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
            _dir.Cleanup();
        }

        string WalPath()
        {
            string dir = _dir.Path("wal-" + Guid.NewGuid().ToString("N").Substring(0, 6));
            Posix.MkDir0700(dir);
            return System.IO.Path.Combine(dir, "rev1");
        }

        [Test]
        public void Wal_AppendReadCompactTruncateReopen()
        {
            string path = WalPath();
            var wal = new KommanderWal(path);
            for (int p = 0; p < 16; p++) Assert.AreEqual(-1, wal.LastId(p), "a fresh WAL has no entries");
            Assert.IsNull(wal.GetMetaData("version"));
            wal.SetMetaData("version", "2.0.0");
            for (int p = 1; p <= 12; p++)
                for (long id = 1; id <= 3 * p + 4; id++) wal.Append(p, id, id % 5 == 0);
            wal.PutSingle(3, 14, true);
            for (int round = 0; round < 3; round++)
            {
                Assert.AreEqual("2.0.0", wal.GetMetaData("version"));
                for (int p = 1; p <= 12; p++)
                {
                    long last = 3 * p + 4 + (p == 3 ? 1 : 0);
                    Assert.AreEqual(last, wal.LastId(p), "partition " + p);
                    Assert.AreEqual(last, wal.ReadFrom(p, 1));
                    Assert.AreEqual(3, wal.ReadFrom(p, last - 2));
                    Assert.AreEqual((3 * p + 4).ToString(), wal.GetMetaData("last-" + p));
                    Assert.AreEqual(last / 10, wal.GetTermAt(p, last));
                }
                Assert.AreEqual(-1, wal.LastId(0));
                Assert.AreEqual(-1, wal.LastId(13));
                Assert.AreEqual(-1, wal.LastId(999999));
                Assert.AreEqual(-1, wal.GetTermAt(1, 999), "GetTermAt of a missing entry");
                wal.Dispose();
                wal = new KommanderWal(path);
            }
            // CompactLogsOlderThan(11) on partition 8, then the marker removed.
            wal.DeleteRangeOfIds(8, 1, 10, true);
            wal.RemoveMetaData("last-8");
            long first;
            Assert.AreEqual(18, wal.Read(8, 1, out first));
            Assert.AreEqual(11, first);
            Assert.AreEqual(28, wal.LastId(8));
            Assert.IsNull(wal.GetMetaData("last-8"));
            Assert.AreEqual(-1, wal.GetTermAt(8, 10));
            // Truncating a conflicting tail: the last id moves back; partition 4 shares shard4.
            wal.DeleteRangeOfIds(12, 30, 40, false);
            Assert.AreEqual(29, wal.LastId(12));
            Assert.AreEqual(16, wal.LastId(4));
            wal.WriteEmptyBatch();
            wal.Dispose();
            wal = new KommanderWal(path);
            Assert.AreEqual(28, wal.LastId(8));
            Assert.AreEqual(29, wal.LastId(12));
            wal.Dispose();
        }

        [Test]
        public void Wal_ConcurrentSyncedAndUnsyncedWriters()
        {
            string path = WalPath();
            var wal = new KommanderWal(path);
            const int writers = 8, entries = 250;
            var errors = new List<Exception>();
            int scans = 0, bad = 0;
            var stop = new ManualResetEvent(false);
            var reader = new Thread(() =>
            {
                try
                {
                    while (!stop.WaitOne(0))
                    {
                        if (!wal.ScanShardsInOrder()) Interlocked.Increment(ref bad);
                        Interlocked.Increment(ref scans);
                    }
                }
                catch (Exception e) { lock (errors) errors.Add(e); }
            });
            reader.Start();
            var threads = new List<Thread>();
            for (int w = 0; w < writers; w++)
            {
                int partition = w + 1;
                threads.Add(new Thread(() =>
                {
                    try { for (long id = 1; id <= entries; id++) wal.Append(partition, id, partition % 2 == 0); }
                    catch (Exception e) { lock (errors) errors.Add(e); }
                }));
            }
            foreach (var t in threads) t.Start();
            foreach (var t in threads) t.Join();
            stop.Set();
            reader.Join();
            Assert.IsEmpty(errors, string.Join("\n", errors));
            Assert.AreEqual(0, bad, "scans that saw keys out of order");
            Assert.That(scans, Is.GreaterThan(0));
            for (int round = 0; round < 2; round++)
            {
                for (int p = 1; p <= writers; p++)
                {
                    Assert.AreEqual(entries, wal.LastId(p));
                    Assert.AreEqual(entries, wal.ReadFrom(p, 1));
                    Assert.AreEqual(entries.ToString(), wal.GetMetaData("last-" + p));
                }
                wal.Dispose();
                wal = new KommanderWal(path);
            }
            wal.Dispose();
        }

        [Test]
        public void Wal_ManyInstancesAndReopens()
        {
            var paths = new string[3];
            var wals = new KommanderWal[3];
            for (int i = 0; i < 3; i++) wals[i] = new KommanderWal(paths[i] = WalPath());
            for (int round = 0; round < 10; round++)
            {
                for (int i = 0; i < 3; i++) wals[i].Append(1, round + 1 + 100 * i, true);
                int victim = round % 3;
                wals[victim].Dispose();
                wals[victim] = new KommanderWal(paths[victim]);
            }
            for (int i = 0; i < 3; i++)
            {
                Assert.AreEqual(10 + 100 * i, wals[i].LastId(1));
                Assert.AreEqual(10, wals[i].ReadFrom(1, 1 + 100 * i));
                wals[i].Dispose();
            }
        }

        [Test]
        public void SharedBundle_TwoWals_MemtableUsageRisesFromBothWrites()
        {
            SharedBundle bundle;
            try { bundle = new SharedBundle(64UL << 20); }
            catch (EntryPointNotFoundException e)
            {
                Engine.IgnoreIfMissingOnRocksDb(e, "rocksdb_write_buffer_manager_create_with_cache");
                throw;
            }
            var a = new KommanderWal(WalPath(), bundle);
            var b = new KommanderWal(WalPath(), bundle);
            ulong u0 = bundle.MemtableMemoryUsage;
            for (int i = 0; i < 400; i++) a.SetMetaData("a-" + i.ToString("D5"), new string('v', 1024));
            ulong u1 = bundle.MemtableMemoryUsage;
            Assert.That(u1, Is.GreaterThan(u0), "usage after writes to the first WAL");
            for (long id = 1; id <= 400; id++) b.Append(1, id, false);
            ulong u2 = bundle.MemtableMemoryUsage;
            Assert.That(u2, Is.GreaterThan(u1), "usage after writes to the second WAL");
            // Disposing the bundle before the WALs (RocksDbSharedResources first) must be safe.
            bundle.Dispose();
            a.Append(2, 1, true);
            b.Append(2, 1, true);
            Assert.AreEqual(1, a.LastId(2));
            Assert.AreEqual(400, b.LastId(1));
            a.Dispose();
            b.Dispose();
        }
    }
}
