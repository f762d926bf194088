// SPDX-License-Identifier: Apache-2.0
// Option objects: Options (DB and column family options, one type as in the C API),
// BlockBasedTableOptions, ReadOptions and WriteOptions. Setters return `this` for chaining. The
// library copies Options and table options when they are used (open, create_column_family,
// set_block_based_table_factory), so they may be disposed right after. ReadOptions keeps alive
// what RocksDB only points at: the snapshot and the iterate-bound bytes.
using System;
using System.Runtime.InteropServices;
using static Solistore.Bool;

namespace Solistore
{
    /// <summary>RocksDB's WALRecoveryMode.</summary>
    public enum WalRecoveryMode
    {
        TolerateCorruptedTailRecords = 0,
        AbsoluteConsistency = 1,
        PointInTime = 2,
        SkipAnyCorruptedRecords = 3,
    }

    /// <summary>RocksDB's CompressionType values (rocksdb_*_compression in c.h).</summary>
    public enum Compression
    {
        None = 0,
        Snappy = 1,
        Zlib = 2,
        Bz2 = 3,
        Lz4 = 4,
        Lz4hc = 5,
        Xpress = 6,
        Zstd = 7,
    }

    public sealed class Options : IDisposable
    {
        static readonly Action<IntPtr> Destroy = Native.rocksdb_options_destroy;
        internal readonly NativeHandle Handle;

        public Options()
        {
            Handle = NativeHandle.Own(Native.rocksdb_options_create, Destroy);
        }

        public void Dispose() { Handle.Dispose(); }

        public Options SetCreateIfMissing(bool value = true)
        {
            using (var o = new Lease(Handle)) Native.rocksdb_options_set_create_if_missing(o.Ptr, B(value));
            return this;
        }

        public Options SetCreateMissingColumnFamilies(bool value = true)
        {
            using (var o = new Lease(Handle)) Native.rocksdb_options_set_create_missing_column_families(o.Ptr, B(value));
            return this;
        }

        public Options SetErrorIfExists(bool value = true)
        {
            using (var o = new Lease(Handle)) Native.rocksdb_options_set_error_if_exists(o.Ptr, B(value));
            return this;
        }

        public Options SetParanoidChecks(bool value = true)
        {
            using (var o = new Lease(Handle)) Native.rocksdb_options_set_paranoid_checks(o.Ptr, B(value));
            return this;
        }

        public Options SetWriteBufferSize(ulong bytes)
        {
            using (var o = new Lease(Handle)) Native.rocksdb_options_set_write_buffer_size(o.Ptr, (UIntPtr)bytes);
            return this;
        }

        public Options SetMaxWriteBufferNumber(int value)
        {
            using (var o = new Lease(Handle)) Native.rocksdb_options_set_max_write_buffer_number(o.Ptr, value);
            return this;
        }

        public Options SetMinWriteBufferNumberToMerge(int value)
        {
            using (var o = new Lease(Handle)) Native.rocksdb_options_set_min_write_buffer_number_to_merge(o.Ptr, value);
            return this;
        }

        public Options SetWalRecoveryMode(WalRecoveryMode mode)
        {
            using (var o = new Lease(Handle)) Native.rocksdb_options_set_wal_recovery_mode(o.Ptr, (int)mode);
            return this;
        }

        public Options SetAllowConcurrentMemtableWrite(bool value = true)
        {
            using (var o = new Lease(Handle)) Native.rocksdb_options_set_allow_concurrent_memtable_write(o.Ptr, B(value));
            return this;
        }

        public Options IncreaseParallelism(int totalThreads)
        {
            using (var o = new Lease(Handle)) Native.rocksdb_options_increase_parallelism(o.Ptr, totalThreads);
            return this;
        }

        public Options SetMaxBackgroundFlushes(int value)
        {
            using (var o = new Lease(Handle)) Native.rocksdb_options_set_max_background_flushes(o.Ptr, value);
            return this;
        }

        public Options SetMaxBackgroundCompactions(int value)
        {
            using (var o = new Lease(Handle)) Native.rocksdb_options_set_max_background_compactions(o.Ptr, value);
            return this;
        }

        public Options SetUseDirectReads(bool value = true)
        {
            using (var o = new Lease(Handle)) Native.rocksdb_options_set_use_direct_reads(o.Ptr, B(value));
            return this;
        }

        public Options EnableStatistics()
        {
            using (var o = new Lease(Handle)) Native.rocksdb_options_enable_statistics(o.Ptr);
            return this;
        }

        public Options SetStatsDumpPeriodSec(uint seconds)
        {
            using (var o = new Lease(Handle)) Native.rocksdb_options_set_stats_dump_period_sec(o.Ptr, seconds);
            return this;
        }

        public Options SetCompression(Compression compression)
        {
            using (var o = new Lease(Handle)) Native.rocksdb_options_set_compression(o.Ptr, (int)compression);
            return this;
        }

        /// <summary>Installs a copy of the table options (later changes to them need another call).</summary>
        public Options SetBlockBasedTableFactory(BlockBasedTableOptions table)
        {
            using (var o = new Lease(Handle))
            using (var t = new Lease(table.Handle))
                Native.rocksdb_options_set_block_based_table_factory(o.Ptr, t.Ptr);
            return this;
        }

        /// <summary>Shares the manager (RocksDB 7.8.3 lacks this function: NotSupported there).</summary>
        public Options SetWriteBufferManager(WriteBufferManager manager)
        {
            using (var o = new Lease(Handle))
            using (var w = new Lease(manager.Handle))
            {
                try { Native.rocksdb_options_set_write_buffer_manager(o.Ptr, w.Ptr); }
                catch (EntryPointNotFoundException e) { throw Errors.Missing(e, "rocksdb_options_set_write_buffer_manager"); }
            }
            return this;
        }
    }

    public sealed class BlockBasedTableOptions : IDisposable
    {
        static readonly Action<IntPtr> Destroy = Native.rocksdb_block_based_options_destroy;
        internal readonly NativeHandle Handle;

        public BlockBasedTableOptions()
        {
            Handle = NativeHandle.Own(Native.rocksdb_block_based_options_create, Destroy);
        }

        public void Dispose() { Handle.Dispose(); }

        /// <summary>Shares the cache (the cache may be disposed afterwards).</summary>
        public BlockBasedTableOptions SetBlockCache(Cache cache)
        {
            using (var t = new Lease(Handle))
            using (var c = new Lease(cache.Handle))
                Native.rocksdb_block_based_options_set_block_cache(t.Ptr, c.Ptr);
            return this;
        }

        public BlockBasedTableOptions SetBlockSize(ulong bytes)
        {
            using (var t = new Lease(Handle)) Native.rocksdb_block_based_options_set_block_size(t.Ptr, (UIntPtr)bytes);
            return this;
        }

        /// <summary>A full bloom filter with bitsPerKey bits per key. The policy object is created
        /// here and owned by the table options from then on (RocksDB frees it with them).</summary>
        public BlockBasedTableOptions SetBloomFilter(double bitsPerKey)
        {
            using (var t = new Lease(Handle))
                Native.rocksdb_block_based_options_set_filter_policy(t.Ptr, Native.rocksdb_filterpolicy_create_bloom_full(bitsPerKey));
            return this;
        }

        public BlockBasedTableOptions SetCacheIndexAndFilterBlocks(bool value = true)
        {
            using (var t = new Lease(Handle)) Native.rocksdb_block_based_options_set_cache_index_and_filter_blocks(t.Ptr, B(value));
            return this;
        }

        public BlockBasedTableOptions SetPinL0FilterAndIndexBlocksInCache(bool value = true)
        {
            using (var t = new Lease(Handle)) Native.rocksdb_block_based_options_set_pin_l0_filter_and_index_blocks_in_cache(t.Ptr, B(value));
            return this;
        }

        public BlockBasedTableOptions SetWholeKeyFiltering(bool value = true)
        {
            using (var t = new Lease(Handle)) Native.rocksdb_block_based_options_set_whole_key_filtering(t.Ptr, B(value));
            return this;
        }
    }

    public sealed class ReadOptions : IDisposable
    {
        static readonly Action<IntPtr> Destroy = Native.rocksdb_readoptions_destroy;
        internal readonly NativeHandle Handle;
        readonly object _lock = new object();
        Snapshot _snapshot;
        HGlobal _upper, _lower;

        public ReadOptions()
        {
            Handle = NativeHandle.Own(Native.rocksdb_readoptions_create, Destroy);
        }

        public void Dispose()
        {
            Handle.Dispose();
            lock (_lock)
            {
                if (_upper != null) _upper.Dispose();
                if (_lower != null) _lower.Dispose();
            }
        }

        public ReadOptions SetFillCache(bool value)
        {
            using (var r = new Lease(Handle)) Native.rocksdb_readoptions_set_fill_cache(r.Ptr, B(value));
            return this;
        }

        public ReadOptions SetVerifyChecksums(bool value)
        {
            using (var r = new Lease(Handle)) Native.rocksdb_readoptions_set_verify_checksums(r.Ptr, B(value));
            return this;
        }

        /// <summary>Reads through these options see the snapshot (null: the latest state). The
        /// native snapshot stays alive while these options, or an iterator made with them, point
        /// at it; reading after the Snapshot object was disposed throws ObjectDisposedException.</summary>
        public ReadOptions SetSnapshot(Snapshot snapshot)
        {
            lock (_lock)
            {
                using (var r = new Lease(Handle))
                using (var s = new Lease(snapshot == null ? null : snapshot.Handle))
                {
                    if (snapshot != null) Handle.Hold(snapshot.Handle);
                    Native.rocksdb_readoptions_set_snapshot(r.Ptr, s.Ptr);
                    if (_snapshot != null) Handle.Drop(_snapshot.Handle);
                    _snapshot = snapshot;
                }
            }
            return this;
        }

        /// <summary>Iterators stop before this key (exclusive; null clears). The bytes are copied
        /// and kept alive with the options, as RocksDB keeps only a pointer to them.</summary>
        public ReadOptions SetIterateUpperBound(byte[] key)
        {
            SetBound(key, true);
            return this;
        }

        /// <summary>Iterators start at or after this key (inclusive; null clears).</summary>
        public ReadOptions SetIterateLowerBound(byte[] key)
        {
            SetBound(key, false);
            return this;
        }

        void SetBound(byte[] key, bool upper)
        {
            lock (_lock)
            {
                using (var r = new Lease(Handle))
                {
                    HGlobal buf = key == null ? null : new HGlobal(key);
                    if (buf != null) Handle.Hold(buf);
                    using (var b = new Lease(buf))
                    {
                        UIntPtr len = (UIntPtr)(buf == null ? 0 : buf.Length);
                        if (upper) Native.rocksdb_readoptions_set_iterate_upper_bound(r.Ptr, b.Ptr, len);
                        else Native.rocksdb_readoptions_set_iterate_lower_bound(r.Ptr, b.Ptr, len);
                    }
                    HGlobal old = upper ? _upper : _lower;
                    if (upper) _upper = buf; else _lower = buf;
                    if (old != null)
                    {
                        Handle.Drop(old);
                        old.Dispose(); // freed now, or when the last iterator holding it goes
                    }
                }
            }
        }

        /// <summary>Throws if the snapshot these options read at was disposed.</summary>
        internal void CheckSnapshot()
        {
            Snapshot s = _snapshot;
            if (s != null && s.Handle.IsDisposed) throw new ObjectDisposedException("Snapshot");
        }

        /// <summary>What an iterator made with these options must keep alive besides them.</summary>
        internal SafeHandle[] Dependencies()
        {
            lock (_lock) { return Handle.Held(); }
        }
    }

    public sealed class WriteOptions : IDisposable
    {
        static readonly Action<IntPtr> Destroy = Native.rocksdb_writeoptions_destroy;
        internal readonly NativeHandle Handle;

        public WriteOptions()
        {
            Handle = NativeHandle.Own(Native.rocksdb_writeoptions_create, Destroy);
        }

        public void Dispose() { Handle.Dispose(); }

        /// <summary>sync: the write is on stable storage (fsync'd) when the call returns.</summary>
        public WriteOptions SetSync(bool value = true)
        {
            using (var w = new Lease(Handle)) Native.rocksdb_writeoptions_set_sync(w.Ptr, B(value));
            return this;
        }

        public WriteOptions DisableWal(bool value = true)
        {
            using (var w = new Lease(Handle)) Native.rocksdb_writeoptions_disable_WAL(w.Ptr, value ? 1 : 0);
            return this;
        }
    }
}
