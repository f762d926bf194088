// SPDX-License-Identifier: Apache-2.0
// Unit tests of the idiomatic layer (Solistore.Db and friends), run against each engine.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading;
using NUnit.Framework;
using static Solistore.Tests.Bytes;

namespace Solistore.Tests
{
    [TestFixture]
    public class BindingTests
    {
        Scratch _dir;
        Options _options;

        [SetUp]
        public void SetUp()
        {
            _dir = new Scratch("binding");
            _options = new Options().SetCreateIfMissing().SetCreateMissingColumnFamilies();
        }

        [TearDown]
        public void TearDown()
        {
            _options.Dispose();
            GC.Collect();
            GC.WaitForPendingFinalizers();
            _dir.Cleanup();
        }

        Db OpenFresh(string name = "db") { return Db.Open(_options, _dir.Path(name)); }

        [Test]
        public void PutGetDelete_ByteArrays()
        {
            using (var db = OpenFresh())
            {
                db.Put(Of("k1"), Of("v1"));
                db.Put(Of("empty"), new byte[0]);
                Assert.AreEqual("v1", Str(db.Get(Of("k1"))));
                Assert.IsNull(db.Get(Of("missing")), "a missing key reads as null");
                byte[] empty = db.Get(Of("empty"));
                Assert.IsNotNull(empty, "a present empty value is not null");
                Assert.AreEqual(0, empty.Length);
                db.Delete(Of("k1"));
                Assert.IsNull(db.Get(Of("k1")));
                db.Delete(Of("never-there"));
                Assert.Throws<ArgumentNullException>(() => db.Put(null, Of("x")));
                Assert.Throws<ArgumentNullException>(() => db.Get((byte[])null));
            }
        }

        [Test]
        public void Spans_EmptyAndBinaryKeys()
        {
            using (var db = OpenFresh())
            {
                // The empty key from a default span (a NULL pointer with length 0) and from an array.
                db.Put(ReadOnlySpan<byte>.Empty, Of("empty-key"));
                Assert.AreEqual("empty-key", Str(db.Get(new byte[0])));
                Assert.AreEqual("empty-key", Str(db.Get(ReadOnlySpan<byte>.Empty)));
                byte[] bin = { 0, 1, 0, 255, 0 };
                byte[] val = { 0, 0, 7, 0 };
                db.Put(new ReadOnlySpan<byte>(bin), new ReadOnlySpan<byte>(val));
                CollectionAssert.AreEqual(val, db.Get(bin));
                CollectionAssert.AreEqual(val, db.Get(new ReadOnlySpan<byte>(bin, 0, 5)));
                Assert.IsNull(db.Get(new ReadOnlySpan<byte>(bin, 0, 4)), "a prefix of the key is another key");
                // GetInto: the full length is returned, as much as fits is copied.
                var small = new byte[2];
                Assert.AreEqual(4, db.GetInto(bin, small));
                CollectionAssert.AreEqual(new byte[] { 0, 0 }, small);
                var big = new byte[8];
                Assert.AreEqual(4, db.GetInto(bin, big));
                CollectionAssert.AreEqual(new byte[] { 0, 0, 7, 0, 0, 0, 0, 0 }, big);
                Assert.AreEqual(-1, db.GetInto(Of("nope"), big));
                db.Delete(new ReadOnlySpan<byte>(bin));
                Assert.IsNull(db.Get(bin));
                // A slice in the middle of a larger buffer.
                byte[] buffer = Of("xxKEYyyVALUEzz");
                db.Put(new ReadOnlySpan<byte>(buffer, 2, 3), new ReadOnlySpan<byte>(buffer, 7, 5));
                Assert.AreEqual("VALUE", Str(db.Get(Of("KEY"))));
            }
        }

        [Test]
        public void LargeValues_RoundTripAcrossReopen()
        {
            string path = _dir.Path("db");
            var big = new byte[3 << 20];
            for (int i = 0; i < big.Length; i++) big[i] = (byte)(i * 31 + (i >> 11));
            using (var db = Db.Open(_options, path)) db.Put(Of("big"), big);
            using (var db = Db.Open(_options, path))
            {
                Bytes.AssertSame(big, db.Get(Of("big")));
                var dest = new byte[big.Length];
                Assert.AreEqual(big.Length, db.GetInto(Of("big"), dest));
                Bytes.AssertSame(big, dest);
            }
        }

        [Test]
        public void WriteBatch_AtomicAcrossColumnFamilies()
        {
            using (var db = Db.Open(_options, _dir.Path("db"), new[] { "default", "meta", "log" }))
            {
                var meta = db.GetColumnFamily("meta");
                var log = db.GetColumnFamily("log");
                db.Put(Of("gone"), Of("1"), log);
                using (var b = new WriteBatch())
                {
                    Assert.AreEqual(0, b.Count);
                    b.Put(Of("entry-1"), Of("payload"), log)
                     .Put(new ReadOnlySpan<byte>(Of("last")), new ReadOnlySpan<byte>(Of("1")), meta)
                     .Put(Of("plain"), Of("default-cf"))
                     .Delete(Of("gone"), log)
                     .Delete(new ReadOnlySpan<byte>(Of("not-there")));
                    Assert.AreEqual(5, b.Count);
                    db.Write(b);
                }
                Assert.AreEqual("payload", Str(db.Get(Of("entry-1"), log)));
                Assert.AreEqual("1", Str(db.Get(Of("last"), meta)));
                Assert.AreEqual("default-cf", Str(db.Get(Of("plain"))));
                Assert.AreEqual("default-cf", Str(db.Get(Of("plain"), db.DefaultColumnFamily)));
                Assert.IsNull(db.Get(Of("gone"), log));
                Assert.IsNull(db.Get(Of("entry-1")), "column families are separate key spaces");
                using (var b = new WriteBatch())
                {
                    b.Put(Of("x"), Of("y"));
                    b.Clear();
                    Assert.AreEqual(0, b.Count);
                    db.Write(b); // an empty batch is accepted
                }
                Assert.IsNull(db.Get(Of("x")));
            }
        }

        [Test]
        public void Iterator_BytewiseOrderSeekAndPrev()
        {
            using (var db = OpenFresh())
            {
                string[] keys = { "a", "ab", "b", "b\u00ff", "c" };
                foreach (var k in keys) db.Put(Of(k), Of("v-" + k));
                db.Put(new byte[] { 0xff }, Of("v-ff"));
                db.Put(new byte[] { 0x00 }, Of("v-00"));
                using (var it = db.NewIterator())
                {
                    var seen = new List<string>();
                    for (it.SeekToFirst(); it.Valid(); it.Next()) seen.Add(BitConverter.ToString(it.Key()));
                    it.CheckStatus();
                    var expected = new List<byte[]> { new byte[] { 0 } };
                    foreach (var k in keys) expected.Add(Of(k));
                    expected.Add(new byte[] { 0xff });
                    CollectionAssert.AreEqual(expected.Select(b => BitConverter.ToString(b)).ToList(), seen, "unsigned bytewise order");

                    it.Seek(Of("aa"));
                    Assert.AreEqual("ab", Str(it.KeySpan()));
                    Assert.AreEqual("v-ab", Str(it.ValueSpan()));
                    it.Prev();
                    Assert.AreEqual("a", Str(it.Key()));
                    it.Seek(new ReadOnlySpan<byte>(Of("b")));
                    Assert.AreEqual("b", Str(it.Key()));
                    it.SeekForPrev(Of("bz"));
                    Assert.AreEqual("b", Str(it.Key()), "\"bz\" sorts before \"b\u00ff\" (0x7a < 0xc3)");
                    it.SeekForPrev(Of("b\u00ff\u00ff"));
                    Assert.AreEqual("b\u00ff", Str(it.Key()));
                    it.SeekForPrev(new ReadOnlySpan<byte>(Of("c")));
                    Assert.AreEqual("c", Str(it.Key()));
                    it.SeekToLast();
                    CollectionAssert.AreEqual(new byte[] { 0xff }, it.Key());
                    it.Next();
                    Assert.IsFalse(it.Valid());
                    it.CheckStatus();
                    // Misuse on an invalid iterator is an exception, not a library call.
                    Assert.Throws<InvalidOperationException>(() => it.Next());
                    Assert.Throws<InvalidOperationException>(() => it.Prev());
                    Assert.Throws<InvalidOperationException>(() => it.Key());
                    Assert.Throws<InvalidOperationException>(() => it.ValueSpan());
                    it.Seek(ReadOnlySpan<byte>.Empty);
                    CollectionAssert.AreEqual(new byte[] { 0 }, it.Key(), "seeking the empty key finds the first key");
                }
            }
        }

        [Test]
        public void Iterator_IsAPointInTimeView()
        {
            using (var db = OpenFresh())
            {
                for (int i = 0; i < 10; i++) db.Put(Of("k" + i), Of("old"));
                using (var it = db.NewIterator())
                {
                    it.SeekToFirst();
                    for (int i = 0; i < 10; i++) db.Put(Of("k" + i), Of("new"));
                    db.Put(Of("k99"), Of("added"));
                    db.Delete(Of("k5"));
                    int n = 0;
                    for (; it.Valid(); it.Next(), n++) Assert.AreEqual("old", Str(it.Value()));
                    Assert.AreEqual(10, n);
                }
            }
        }

        [Test]
        public void ReadOptions_IterateBoundsOutliveTheirReplacement()
        {
            using (var db = OpenFresh())
            {
                foreach (var k in new[] { "a", "b", "c", "d", "e" }) db.Put(Of(k), Of(k));
                using (var ro = new ReadOptions().SetIterateLowerBound(Of("b")).SetIterateUpperBound(Of("d")))
                {
                    using (var it = db.NewIterator(null, ro))
                    {
                        var first = new List<string>();
                        for (it.SeekToFirst(); it.Valid(); it.Next()) first.Add(Str(it.Key()));
                        CollectionAssert.AreEqual(new[] { "b", "c" }, first);
                        // Replace the bounds and collect the old bytes' owners: the iterator must
                        // still read safely. What it sees differs by engine: RocksDB's iterators
                        // follow the read options' current bounds (the Slice lives in the options
                        // object), libsolistore's keep the bounds they were created with.
                        ro.SetIterateUpperBound(Of("zzzz")).SetIterateLowerBound(null);
                        GC.Collect();
                        GC.WaitForPendingFinalizers();
                        var seen = new List<string>();
                        for (it.SeekToFirst(); it.Valid(); it.Next()) seen.Add(Str(it.Key()));
                        string got = string.Join(",", seen);
                        Console.WriteLine(Engine.Name + ": after the bounds changed, an existing iterator sees " + got);
                        Assert.That(got, Is.EqualTo("b,c").Or.EqualTo("a,b,c,d,e"));
                    }
                    using (var it = db.NewIterator(null, ro))
                    {
                        var seen = new List<string>();
                        for (it.SeekToFirst(); it.Valid(); it.Next()) seen.Add(Str(it.Key()));
                        CollectionAssert.AreEqual(new[] { "a", "b", "c", "d", "e" }, seen);
                    }
                }
            }
        }

        [Test]
        public void Snapshot_ReadsAndLifetime()
        {
            using (var db = OpenFresh())
            {
                db.Put(Of("k"), Of("before"));
                var snap = db.CreateSnapshot();
                var ro = new ReadOptions().SetSnapshot(snap);
                db.Put(Of("k"), Of("after"));
                db.Put(Of("k2"), Of("new"));
                Assert.AreEqual("before", Str(db.Get(Of("k"), null, ro)));
                Assert.IsNull(db.Get(Of("k2"), null, ro));
                Assert.AreEqual("after", Str(db.Get(Of("k"))));
                var it = db.NewIterator(null, ro);
                // Disposing the snapshot defers the release while the iterator uses it ...
                snap.Dispose();
                it.SeekToFirst();
                Assert.AreEqual("k", Str(it.Key()));
                Assert.AreEqual("before", Str(it.Value()));
                it.Next();
                Assert.IsFalse(it.Valid());
                it.Dispose();
                // ... and reading through options that name a disposed snapshot is refused.
                Assert.Throws<ObjectDisposedException>(() => db.Get(Of("k"), null, ro));
                Assert.Throws<ObjectDisposedException>(() => db.NewIterator(null, ro));
                ro.SetSnapshot(null);
                Assert.AreEqual("after", Str(db.Get(Of("k"), null, ro)));
                ro.Dispose();
            }
        }

        [Test]
        public void ColumnFamilies_CreateListDropReopen()
        {
            string path = _dir.Path("db");
            using (var db = Db.Open(_options, path))
            {
                var users = db.CreateColumnFamily("users");
                var tmp = db.CreateColumnFamily("tmp", _options);
                db.Put(Of("alice"), Of("1"), users);
                db.Put(Of("x"), Of("1"), tmp);
                CollectionAssert.AreEquivalent(new[] { "default", "users", "tmp" }, db.ColumnFamilyNames);
                var ex = Assert.Throws<SolistoreException>(() => db.CreateColumnFamily("users"));
                Assert.AreEqual(StatusCode.InvalidArgument, ex.Code, ex.Message);
                db.DropColumnFamily("tmp");
                Assert.Throws<ObjectDisposedException>(() => db.Get(Of("x"), tmp), "a dropped family's handle is destroyed");
                Assert.Throws<ArgumentException>(() => db.GetColumnFamily("tmp"));
                ColumnFamilyHandle none;
                Assert.IsFalse(db.TryGetColumnFamily("tmp", out none));
            }
            CollectionAssert.AreEquivalent(new[] { "default", "users" }, Db.ListColumnFamilies(_options, path));
            var missing = Assert.Throws<SolistoreException>(() => Db.Open(_options, path));
            Assert.AreEqual(StatusCode.InvalidArgument, missing.Code, missing.Message);
            StringAssert.Contains("users", missing.Message, "names the family not opened");
            using (var db = Db.Open(_options, path, Db.ListColumnFamilies(_options, path)))
            using (var other = Db.Open(_options, _dir.Path("other")))
            {
                var users = db.GetColumnFamily("users");
                Assert.AreEqual("users", users.Name);
                Assert.AreSame(db, users.Db);
                Assert.AreEqual("1", Str(db.Get(Of("alice"), users)));
                Assert.Throws<ArgumentException>(() => other.Get(Of("alice"), users), "a handle of another Db");
            }
        }

        [Test]
        public void Errors_CarryTheStatusCode()
        {
            string path = _dir.Path("db");
            using (var plain = new Options())
            {
                var e = Assert.Throws<SolistoreException>(() => Db.Open(plain, path));
                Assert.AreEqual(StatusCode.InvalidArgument, e.Code);
                StringAssert.StartsWith("Invalid argument: ", e.Message);
                StringAssert.Contains("does not exist", e.Detail);
                Assert.IsFalse(e.Detail.StartsWith("Invalid argument", StringComparison.Ordinal));
            }
            using (var db = Db.Open(_options, path))
            {
                var locked = Assert.Throws<SolistoreException>(() => Db.Open(_options, path));
                Assert.AreEqual(StatusCode.IOError, locked.Code, locked.Message);
                StringAssert.Contains("LOCK", locked.Message);
                using (var exists = new Options().SetErrorIfExists())
                {
                    db.Dispose();
                    var e = Assert.Throws<SolistoreException>(() => Db.Open(exists, path));
                    Assert.AreEqual(StatusCode.InvalidArgument, e.Code);
                    StringAssert.Contains("exists", e.Message);
                }
            }
            using (var db = Db.Open(_options, path))
            {
                string cp = _dir.Path("cp");
                db.CreateCheckpoint(cp);
                var e = Assert.Throws<SolistoreException>(() => db.CreateCheckpoint(cp));
                Assert.AreEqual("Invalid argument: Directory exists", e.Message);
                Assert.AreEqual(StatusCode.InvalidArgument, e.Code);
            }
        }

        [Test]
        public void StatusMessages_ParseEveryPrefix()
        {
            var cases = new Dictionary<string, StatusCode>
            {
                { "NotFound: ", StatusCode.NotFound },
                { "Corruption: bad block", StatusCode.Corruption },
                { "Not implemented: rocksdb_x", StatusCode.NotSupported },
                { "Invalid argument: Column family not found: x", StatusCode.InvalidArgument },
                { "IO error: No space left on device: /db/000004.log", StatusCode.IOError },
                { "Merge in progress: ", StatusCode.MergeInProgress },
                { "Result incomplete: ", StatusCode.Incomplete },
                { "Shutdown in progress: ", StatusCode.ShutdownInProgress },
                { "Operation timed out: Timeout waiting to lock key", StatusCode.TimedOut },
                { "Operation aborted: ", StatusCode.Aborted },
                { "Resource busy: ", StatusCode.Busy },
                { "Operation expired: ", StatusCode.Expired },
                { "Operation failed. Try again.: ", StatusCode.TryAgain },
                { "Compaction too large: ", StatusCode.CompactionTooLarge },
                { "Column family dropped: ", StatusCode.ColumnFamilyDropped },
                { "something else: entirely", StatusCode.Unknown },
                { "IO errors: not a prefix", StatusCode.Unknown },
                { "", StatusCode.Unknown },
            };
            foreach (var c in cases)
            {
                var e = new SolistoreException(c.Key);
                Assert.AreEqual(c.Value, e.Code, c.Key);
                Assert.AreEqual(c.Key, e.Message);
            }
            Assert.AreEqual("No space left on device: /db/000004.log", new SolistoreException("IO error: No space left on device: /db/000004.log").Detail);
            Assert.AreEqual("", new SolistoreException("NotFound: ").Detail);
            Assert.AreEqual("Invalid argument: x", new SolistoreException(StatusCode.InvalidArgument, "x").Message);
            Assert.AreEqual("Invalid argument", SolistoreException.PrefixOf(StatusCode.InvalidArgument));
        }

        [Test]
        public void MultiGet_InInputOrderAcrossFamilies()
        {
            using (var db = Db.Open(_options, _dir.Path("db"), new[] { "default", "kv" }))
            {
                var kv = db.GetColumnFamily("kv");
                for (int i = 0; i < 50; i += 2) db.Put(Of("k" + i), Of("v" + i), kv);
                db.Put(Of("k1"), Of("in-default"));
                db.Put(Of("e"), new byte[0], kv);
                var keys = new List<byte[]>();
                for (int i = 49; i >= 0; i--) keys.Add(Of("k" + i));
                keys.Add(Of("e"));
                byte[][] vals = db.MultiGet(keys.ToArray(), kv);
                for (int i = 0; i < 50; i++)
                {
                    int k = 49 - i;
                    if (k % 2 == 0) Assert.AreEqual("v" + k, Str(vals[i]));
                    else Assert.IsNull(vals[i], "k" + k);
                }
                Assert.IsNotNull(vals[50]);
                Assert.AreEqual(0, vals[50].Length);
                byte[][] mixed = db.MultiGet(new[] { Of("k1"), Of("k2"), Of("k1") }, new[] { null, kv, kv });
                Assert.AreEqual("in-default", Str(mixed[0]));
                Assert.AreEqual("v2", Str(mixed[1]));
                Assert.IsNull(mixed[2]);
                Assert.AreEqual(0, db.MultiGet(new byte[0][]).Length);
            }
        }

        [Test]
        public void FlushCompactPropertiesAndCheckpoint()
        {
            string path = _dir.Path("db");
            string copy = _dir.Path("copy");
            using (var db = Db.Open(_options, path, new[] { "default", "kv" }))
            {
                var kv = db.GetColumnFamily("kv");
                for (int i = 0; i < 1000; i++) db.Put(Of("key" + i.ToString("D5")), Of("value" + i), kv);
                db.Flush(kv);
                for (int i = 0; i < 500; i++) db.Delete(Of("key" + i.ToString("D5")), kv);
                db.DeleteRange(Of("key00900"), Of("key00950"), kv);
                db.Flush(kv);
                db.CompactRange(null, null, kv);
                db.CompactRange(Of("a"), Of("z"));
                Assert.IsNull(db.Get(Of("key00001"), kv));
                Assert.IsNull(db.Get(Of("key00925"), kv));
                Assert.AreEqual("value999", Str(db.Get(Of("key00999"), kv)));
                string n = db.GetProperty("rocksdb.estimate-num-keys", kv);
                Assert.IsNotNull(n);
                Assert.That(ulong.Parse(n), Is.GreaterThan(0UL));
                Assert.IsNull(db.GetProperty("rocksdb.no-such-property"));
                db.Put(Of("after"), Of("flush"), kv);
                using (var cp = db.Checkpoint()) cp.Save(copy);
                db.Put(Of("after-checkpoint"), Of("x"), kv);
            }
            using (var db = Db.Open(new Options(), copy, new[] { "default", "kv" }))
            {
                var kv = db.GetColumnFamily("kv");
                Assert.AreEqual("flush", Str(db.Get(Of("after"), kv)));
                Assert.AreEqual("value999", Str(db.Get(Of("key00999"), kv)));
                Assert.IsNull(db.Get(Of("after-checkpoint"), kv));
            }
            Db.Destroy(_options, copy);
            using (var plain = new Options())
                Assert.Throws<SolistoreException>(() => Db.Open(plain, copy));
            Db.Destroy(_options, _dir.Path("never-existed"));
        }

        [Test]
        public void Cache_UsageRisesWithTableReads()
        {
            using (var cache = Cache.CreateLru(8 << 20))
            using (var table = new BlockBasedTableOptions().SetBlockCache(cache).SetBloomFilter(10).SetBlockSize(4096)
                       .SetCacheIndexAndFilterBlocks().SetPinL0FilterAndIndexBlocksInCache().SetWholeKeyFiltering())
            using (var opts = new Options().SetCreateIfMissing().SetBlockBasedTableFactory(table))
            {
                Assert.AreEqual(8UL << 20, cache.Capacity);
                using (var db = Db.Open(opts, _dir.Path("db")))
                {
                    for (int i = 0; i < 2000; i++) db.Put(Of("key" + i.ToString("D6")), Of(new string('v', 100)));
                    db.Flush();
                    ulong before = cache.Usage;
                    for (int i = 0; i < 2000; i += 97) Assert.IsNotNull(db.Get(Of("key" + i.ToString("D6"))));
                    Assert.That(cache.Usage, Is.GreaterThan(before), "block cache usage after table reads");
                }
            }
        }

        [Test]
        public void WriteBufferManager_ChargesMemtables()
        {
            using (var cache = Cache.CreateLru(64 << 20))
            {
                WriteBufferManager wbm;
                try { wbm = new WriteBufferManager(32 << 20, cache); }
                catch (SolistoreException e)
                {
                    Engine.IgnoreIfMissingOnRocksDb(e);
                    throw;
                }
                using (wbm)
                using (var opts = new Options().SetCreateIfMissing().SetWriteBufferManager(wbm))
                using (var db = Db.Open(opts, _dir.Path("db")))
                {
                    ulong u0 = wbm.MemoryUsage;
                    var v = new byte[1024];
                    for (int i = 0; i < 400; i++) db.Put(Of("k" + i), v);
                    Assert.That(wbm.MemoryUsage, Is.GreaterThan(u0));
                }
            }
        }

        [Test]
        public void Dispose_DefersCloseUntilIteratorsAreGone()
        {
            string path = _dir.Path("db");
            var db = Db.Open(_options, path);
            db.Put(Of("k"), Of("v"));
            var it = db.NewIterator();
            var cp = db.Checkpoint();
            db.Dispose();
            db.Dispose(); // idempotent
            Assert.Throws<ObjectDisposedException>(() => db.Get(Of("k")));
            Assert.Throws<ObjectDisposedException>(() => db.Put(Of("k"), Of("v")));
            // The iterator still reads: the database stays open underneath it ...
            it.SeekToFirst();
            Assert.AreEqual("v", Str(it.Value()));
            var locked = Assert.Throws<SolistoreException>(() => Db.Open(_options, path));
            Assert.AreEqual(StatusCode.IOError, locked.Code);
            it.Dispose();
            cp.Save(_dir.Path("cp"));
            cp.Dispose();
            Assert.Throws<ObjectDisposedException>(() => it.SeekToFirst());
            // ... and closes when the last one goes, releasing the lock.
            using (var again = Db.Open(_options, path)) Assert.AreEqual("v", Str(again.Get(Of("k"))));
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static void OpenWriteAndAbandon(Options options, string path)
        {
            var db = Db.Open(options, path, new[] { "default", "kv" });
            db.Put(Of("k"), Of("written-before-abandon"), db.GetColumnFamily("kv"));
            var it = db.NewIterator(db.GetColumnFamily("kv"));
            it.SeekToFirst();
            var snap = db.CreateSnapshot();
            var ro = new ReadOptions().SetSnapshot(snap).SetIterateUpperBound(Of("z"));
            db.NewIterator(null, ro).SeekToFirst();
            new WriteBatch().Put(Of("a"), Of("b"));
        }

        [Test]
        public void Finalizers_CloseAbandonedDatabasesInAnyOrder()
        {
            string path = _dir.Path("db");
            for (int round = 0; round < 3; round++)
            {
                OpenWriteAndAbandon(_options, path);
                GC.Collect();
                GC.WaitForPendingFinalizers();
                GC.Collect();
                GC.WaitForPendingFinalizers();
            }
            using (var db = Db.Open(_options, path, new[] { "default", "kv" }))
                Assert.AreEqual("written-before-abandon", Str(db.Get(Of("k"), db.GetColumnFamily("kv"))));
        }

        [Test]
        public void Concurrent_WritersAndReaders()
        {
            using (var db = Db.Open(_options, _dir.Path("db"), new[] { "default", "a", "b" }))
            using (var sync = new WriteOptions().SetSync())
            {
                var cfs = new[] { db.GetColumnFamily("a"), db.GetColumnFamily("b") };
                var errors = new List<Exception>();
                var threads = new List<Thread>();
                for (int t = 0; t < 6; t++)
                {
                    int id = t;
                    threads.Add(new Thread(() =>
                    {
                        try
                        {
                            for (int i = 0; i < 200; i++)
                            {
                                using (var b = new WriteBatch())
                                {
                                    b.Put(Of("t" + id + "-" + i.ToString("D4")), Of("v" + i), cfs[id % 2]);
                                    b.Put(Of("last-" + id), Of(i.ToString()));
                                    db.Write(b, id % 2 == 0 ? sync : null);
                                }
                                Assert.AreEqual("v" + i, Str(db.Get(Of("t" + id + "-" + i.ToString("D4")), cfs[id % 2])));
                            }
                        }
                        catch (Exception e) { lock (errors) errors.Add(e); }
                    }));
                }
                foreach (var th in threads) th.Start();
                foreach (var th in threads) th.Join();
                Assert.IsEmpty(errors, string.Join("\n", errors.Select(e => e.ToString())));
                for (int t = 0; t < 6; t++) Assert.AreEqual("199", Str(db.Get(Of("last-" + t))));
                int count = 0;
                using (var it = db.NewIterator(cfs[0]))
                    for (it.SeekToFirst(); it.Valid(); it.Next()) count++;
                Assert.AreEqual(600, count);
            }
        }

        static long RssKiB()
        {
            foreach (var line in File.ReadAllLines("/proc/self/status"))
                if (line.StartsWith("VmRSS:", StringComparison.Ordinal))
                    return long.Parse(line.Substring(6).Trim().Split(' ')[0]);
            return -1;
        }

        [Test]
        public void ReturnedBuffers_AreFreed()
        {
            // 400 MB pass through rocksdb_get / multi_get / error strings; if the binding kept them,
            // the resident set would grow by about that much.
            using (var db = OpenFresh())
            {
                var v = new byte[4096];
                for (int i = 0; i < 100; i++) db.Put(Of("k" + i), v);
                var keys = new byte[100][];
                for (int i = 0; i < 100; i++) keys[i] = Of("k" + i);
                for (int i = 0; i < 2000; i++) Assert.AreEqual(4096, db.Get(keys[i % 100]).Length);
                GC.Collect();
                long before = RssKiB();
                for (int round = 0; round < 1000; round++)
                {
                    for (int i = 0; i < 50; i++) db.Get(keys[(round + i) % 100]);
                    db.MultiGet(keys);
                }
                using (var plain = new Options())
                    for (int i = 0; i < 2000; i++)
                        Assert.Throws<SolistoreException>(() => Db.Open(plain, _dir.Path("missing")));
                GC.Collect();
                long grown = RssKiB() - before;
                Assert.That(grown, Is.LessThan(150 * 1024), "resident set grew by " + grown + " KiB");
            }
        }

        [Test]
        public void RawLayer_NonColumnFamilyFunctions()
        {
            // The plain (non-_cf) functions of the raw layer, which the idiomatic layer does not use.
            IntPtr opts = Native.rocksdb_options_create();
            Native.rocksdb_options_set_create_if_missing(opts, 1);
            IntPtr path = Marshal_Alloc(_dir.Path("raw"));
            IntPtr err;
            IntPtr db = Native.rocksdb_open(opts, path, out err);
            Assert.AreEqual(IntPtr.Zero, err);
            Assert.AreNotEqual(IntPtr.Zero, db);
            IntPtr wo = Native.rocksdb_writeoptions_create();
            IntPtr ro = Native.rocksdb_readoptions_create();
            byte[] k = Of("key"), v = Of("value");
            Native.rocksdb_put(db, wo, k, (UIntPtr)k.Length, v, (UIntPtr)v.Length, out err);
            Assert.AreEqual(IntPtr.Zero, err);
            UIntPtr len;
            IntPtr got = Native.rocksdb_get(db, ro, k, (UIntPtr)k.Length, out len, out err);
            Assert.AreEqual(IntPtr.Zero, err);
            Assert.AreEqual(5UL, (ulong)len);
            Native.rocksdb_free(got);
            var keyPtrs = new IntPtr[1];
            var pin = System.Runtime.InteropServices.GCHandle.Alloc(k, System.Runtime.InteropServices.GCHandleType.Pinned);
            keyPtrs[0] = pin.AddrOfPinnedObject();
            var vals = new IntPtr[1];
            var vlens = new UIntPtr[1];
            var errs = new IntPtr[1];
            Native.rocksdb_multi_get(db, ro, (UIntPtr)1, keyPtrs, new[] { (UIntPtr)k.Length }, vals, vlens, errs);
            pin.Free();
            Assert.AreEqual(IntPtr.Zero, errs[0]);
            Assert.AreEqual(5UL, (ulong)vlens[0]);
            Native.rocksdb_free(vals[0]);
            IntPtr it = Native.rocksdb_create_iterator(db, ro);
            Native.rocksdb_iter_seek_to_first(it);
            Assert.AreEqual(1, Native.rocksdb_iter_valid(it));
            Native.rocksdb_iter_destroy(it);
            Native.rocksdb_delete(db, wo, k, (UIntPtr)k.Length, out err);
            Assert.AreEqual(IntPtr.Zero, err);
            got = Native.rocksdb_get(db, ro, k, (UIntPtr)k.Length, out len, out err);
            Assert.AreEqual(IntPtr.Zero, got);
            Assert.AreEqual(IntPtr.Zero, err, "a missing key leaves errptr untouched");
            Native.rocksdb_readoptions_destroy(ro);
            Native.rocksdb_writeoptions_destroy(wo);
            Native.rocksdb_close(db);
            Native.rocksdb_options_destroy(opts);
            System.Runtime.InteropServices.Marshal.FreeHGlobal(path);
        }

        static IntPtr Marshal_Alloc(string s)
        {
            byte[] b = System.Text.Encoding.UTF8.GetBytes(s + "\0");
            IntPtr p = System.Runtime.InteropServices.Marshal.AllocHGlobal(b.Length);
            System.Runtime.InteropServices.Marshal.Copy(b, 0, p, b.Length);
            return p;
        }

        [Test]
        public void OptionSetters_AllAccepted()
        {
            // The host-style option set (Kahuna, Kommander): every setter is reachable and the open works.
            using (var cache = Cache.CreateLru(16 << 20))
            using (var table = new BlockBasedTableOptions().SetBlockCache(cache).SetBloomFilter(10))
            using (var opts = new Options().SetCreateIfMissing().SetCreateMissingColumnFamilies()
                       .SetWalRecoveryMode(WalRecoveryMode.AbsoluteConsistency).SetAllowConcurrentMemtableWrite()
                       .IncreaseParallelism(2).SetMaxBackgroundFlushes(2).SetMaxBackgroundCompactions(2)
                       .SetUseDirectReads(false).EnableStatistics().SetStatsDumpPeriodSec(60)
                       .SetParanoidChecks().SetCompression(Compression.None)
                       .SetWriteBufferSize(8 << 20).SetMaxWriteBufferNumber(3).SetMinWriteBufferNumberToMerge(1)
                       .SetBlockBasedTableFactory(table))
            using (var wo = new WriteOptions().SetSync().DisableWal(false))
            using (var ro = new ReadOptions().SetFillCache(false).SetVerifyChecksums(true))
            using (var db = Db.Open(opts, _dir.Path("db")))
            {
                db.Put(Of("k"), Of("v"), null, wo);
                Assert.AreEqual("v", Str(db.Get(Of("k"), null, ro)));
            }
        }
    }
}
