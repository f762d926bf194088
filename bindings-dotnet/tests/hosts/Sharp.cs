// SPDX-License-Identifier: Apache-2.0
// A miniature of RocksDbSharp's managed layer, only as far as Kommander and Kahuna use it,
// built on RocksDbSharpNative: the objects those hosts create (DbOptions/ColumnFamilyOptions,
// BlockBasedTableOptions, Cache, ReadOptions, WriteOptions with finalizers that call the
// *_destroy functions; RocksDb whose Dispose and finalizer destroy the CF handles then close),
// and what its wrappers do with native results (errptr -> RocksDbException through
// Marshal.PtrToStringAnsi + rocksdb_free; Get copies then frees; GetKeySpan/GetValueSpan point
// into the iterator; MultiGet pins each key with a GCHandle). Replays call these in the hosts'
// order, so the native call sequence is the hosts' own.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using N = Solistore.Tests.Hosts.RocksDbSharpNative;

namespace Solistore.Tests.Hosts.Sharp
{
    /// <summary>RocksDbSharp's ISpanDeserializer&lt;T&gt;.</summary>
    public interface ISpanDeserializer<T>
    {
        T Deserialize(ReadOnlySpan<byte> buffer);
    }

    public class RocksDbException : Exception
    {
        public RocksDbException(IntPtr errptr) : base(Marshal.PtrToStringAnsi(errptr))
        {
            N.rocksdb_free(errptr);
        }

        public static void ThrowIf(IntPtr errptr)
        {
            if (errptr != IntPtr.Zero) throw new RocksDbException(errptr);
        }
    }

    public class OptionsHandle
    {
        public IntPtr Handle { get; private set; }
        public OptionsHandle() { Handle = N.rocksdb_options_create(); }
        ~OptionsHandle()
        {
            if (Handle != IntPtr.Zero) { N.rocksdb_options_destroy(Handle); Handle = IntPtr.Zero; }
        }
    }

    public class DbOptions : OptionsHandle
    {
        public DbOptions SetCreateIfMissing(bool v) { N.rocksdb_options_set_create_if_missing(Handle, (byte)(v ? 1 : 0)); return this; }
        public DbOptions SetCreateMissingColumnFamilies(bool v) { N.rocksdb_options_set_create_missing_column_families(Handle, (byte)(v ? 1 : 0)); return this; }
        public DbOptions SetAllowConcurrentMemtableWrite(bool v) { N.rocksdb_options_set_allow_concurrent_memtable_write(Handle, (byte)(v ? 1 : 0)); return this; }
        public DbOptions SetWalRecoveryMode(Recovery mode) { N.rocksdb_options_set_wal_recovery_mode(Handle, mode); return this; }
        public DbOptions IncreaseParallelism(int n) { N.rocksdb_options_increase_parallelism(Handle, n); return this; }
        public DbOptions SetMaxBackgroundFlushes(int n) { N.rocksdb_options_set_max_background_flushes(Handle, n); return this; }
        public DbOptions SetMaxBackgroundCompactions(int n) { N.rocksdb_options_set_max_background_compactions(Handle, n); return this; }
        public DbOptions SetUseDirectReads(bool v) { N.rocksdb_options_set_use_direct_reads(Handle, (byte)(v ? 1 : 0)); return this; }
        public DbOptions EnableStatistics() { N.rocksdb_options_enable_statistics(Handle); return this; }
    }

    public class ColumnFamilyOptions : OptionsHandle
    {
        public ColumnFamilyOptions SetBlockBasedTableFactory(BlockBasedTableOptions t) { N.rocksdb_options_set_block_based_table_factory(Handle, t.Handle); return this; }
        public ColumnFamilyOptions SetWriteBufferSize(ulong v) { N.rocksdb_options_set_write_buffer_size(Handle, (UIntPtr)v); return this; }
        public ColumnFamilyOptions SetMaxWriteBufferNumber(int v) { N.rocksdb_options_set_max_write_buffer_number(Handle, v); return this; }
        public ColumnFamilyOptions SetMinWriteBufferNumberToMerge(int v) { N.rocksdb_options_set_min_write_buffer_number_to_merge(Handle, v); return this; }
    }

    public class BlockBasedTableOptions
    {
        public IntPtr Handle { get; private set; }
        public BlockBasedTableOptions() { Handle = N.rocksdb_block_based_options_create(); }
        ~BlockBasedTableOptions()
        {
            if (Handle != IntPtr.Zero) { N.rocksdb_block_based_options_destroy(Handle); Handle = IntPtr.Zero; }
        }
        public BlockBasedTableOptions SetBlockCache(Cache c) { N.rocksdb_block_based_options_set_block_cache(Handle, c.Handle); return this; }
        // BloomFilterPolicy.Create(10, false): the policy goes to the options; RocksDbSharp never destroys it.
        public BlockBasedTableOptions SetFilterPolicy(IntPtr policy) { N.rocksdb_block_based_options_set_filter_policy(Handle, policy); return this; }
        public BlockBasedTableOptions SetCacheIndexAndFilterBlocks(bool v) { N.rocksdb_block_based_options_set_cache_index_and_filter_blocks(Handle, (byte)(v ? 1 : 0)); return this; }
        public BlockBasedTableOptions SetPinL0FilterAndIndexBlocksInCache(bool v) { N.rocksdb_block_based_options_set_pin_l0_filter_and_index_blocks_in_cache(Handle, (byte)(v ? 1 : 0)); return this; }
        public BlockBasedTableOptions SetWholeKeyFiltering(bool v) { N.rocksdb_block_based_options_set_whole_key_filtering(Handle, (byte)(v ? 1 : 0)); return this; }
    }

    public class Cache
    {
        public IntPtr Handle { get; private set; }
        Cache(IntPtr h) { Handle = h; }
        public static Cache CreateLru(ulong capacity) { return new Cache(N.rocksdb_cache_create_lru(new UIntPtr(capacity))); }
        ~Cache()
        {
            if (Handle != IntPtr.Zero) { N.rocksdb_cache_destroy(Handle); Handle = IntPtr.Zero; }
        }
        /// <summary>Kommander's RocksDbSharedResources.Dispose: destroy now, no finalizer later.</summary>
        public void DestroyNow()
        {
            N.rocksdb_cache_destroy(Handle);
            Handle = IntPtr.Zero;
            GC.SuppressFinalize(this);
        }
    }

    public class ReadOptions
    {
        public IntPtr Handle { get; private set; }
        public ReadOptions() { Handle = N.rocksdb_readoptions_create(); }
        ~ReadOptions()
        {
            if (Handle != IntPtr.Zero) { N.rocksdb_readoptions_destroy(Handle); Handle = IntPtr.Zero; }
        }
        public ReadOptions SetFillCache(bool v) { N.rocksdb_readoptions_set_fill_cache(Handle, (byte)(v ? 1 : 0)); return this; }
    }

    public class WriteOptions
    {
        public IntPtr Handle { get; private set; }
        public WriteOptions() { Handle = N.rocksdb_writeoptions_create(); }
        ~WriteOptions()
        {
            if (Handle != IntPtr.Zero) { N.rocksdb_writeoptions_destroy(Handle); Handle = IntPtr.Zero; }
        }
        public WriteOptions SetSync(bool v) { N.rocksdb_writeoptions_set_sync(Handle, (byte)(v ? 1 : 0)); return this; }
    }

    public sealed unsafe class WriteBatch : IDisposable
    {
        public IntPtr Handle { get; private set; }
        public WriteBatch() { Handle = N.rocksdb_writebatch_create(); }
        public void Dispose()
        {
            if (Handle != IntPtr.Zero) { N.rocksdb_writebatch_destroy(Handle); Handle = IntPtr.Zero; }
        }
        public WriteBatch Put(byte[] key, byte[] val, ColumnFamilyHandle cf)
        {
            N.rocksdb_writebatch_put_cf(Handle, cf.Handle, key, (UIntPtr)key.Length, val, (UIntPtr)val.Length);
            return this;
        }
        public WriteBatch Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, ColumnFamilyHandle cf)
        {
            fixed (byte* k = &MemoryMarshal.GetReference(key))
            fixed (byte* v = &MemoryMarshal.GetReference(value))
                N.rocksdb_writebatch_put_cf(Handle, cf.Handle, k, (UIntPtr)key.Length, v, (UIntPtr)value.Length);
            return this;
        }
        public WriteBatch Delete(byte[] key, ColumnFamilyHandle cf)
        {
            N.rocksdb_writebatch_delete_cf(Handle, cf.Handle, key, (UIntPtr)key.Length);
            return this;
        }
        public WriteBatch Delete(ReadOnlySpan<byte> key, ColumnFamilyHandle cf)
        {
            fixed (byte* k = &MemoryMarshal.GetReference(key))
                N.rocksdb_writebatch_delete_cf(Handle, cf.Handle, k, (UIntPtr)key.Length);
            return this;
        }
    }

    public sealed class ColumnFamilyHandle
    {
        public IntPtr Handle { get; internal set; }
        internal ColumnFamilyHandle(IntPtr h) { Handle = h; }
        internal void Destroy()
        {
            if (Handle != IntPtr.Zero) { N.rocksdb_column_family_handle_destroy(Handle); Handle = IntPtr.Zero; }
        }
    }

    /// <summary>ColumnFamilies: "default" first, each entry with its own options.</summary>
    public sealed class ColumnFamilies : List<KeyValuePair<string, ColumnFamilyOptions>>
    {
        public ColumnFamilies() : this(new ColumnFamilyOptions()) { }
        public ColumnFamilies(ColumnFamilyOptions defaultOptions) { Add("default", defaultOptions); }
        public void Add(string name, ColumnFamilyOptions o) { Add(new KeyValuePair<string, ColumnFamilyOptions>(name, o)); }
    }

    public sealed unsafe class Iterator : IDisposable
    {
        IntPtr _h;
        internal Iterator(IntPtr h) { _h = h; }
        public void Dispose()
        {
            if (_h != IntPtr.Zero) { N.rocksdb_iter_destroy(_h); _h = IntPtr.Zero; }
        }
        public bool Valid() { return N.rocksdb_iter_valid(_h) != 0; }
        public Iterator SeekToFirst() { N.rocksdb_iter_seek_to_first(_h); return this; }
        public Iterator SeekToLast() { N.rocksdb_iter_seek_to_last(_h); return this; }
        public Iterator Seek(byte[] key) { N.rocksdb_iter_seek(_h, key, (UIntPtr)key.Length); return this; }
        public Iterator Seek(ReadOnlySpan<byte> key)
        {
            fixed (byte* k = &MemoryMarshal.GetReference(key)) N.rocksdb_iter_seek(_h, k, (UIntPtr)key.Length);
            return this;
        }
        public Iterator Next() { N.rocksdb_iter_next(_h); return this; }
        public Iterator Prev() { N.rocksdb_iter_prev(_h); return this; }
        public ReadOnlySpan<byte> GetKeySpan()
        {
            UIntPtr len;
            IntPtr p = N.rocksdb_iter_key(_h, out len);
            return new ReadOnlySpan<byte>((void*)p, (int)len);
        }
        public ReadOnlySpan<byte> GetValueSpan()
        {
            UIntPtr len;
            IntPtr p = N.rocksdb_iter_value(_h, out len);
            return new ReadOnlySpan<byte>((void*)p, (int)len);
        }
        public byte[] Key() { return GetKeySpan().ToArray(); }
        public byte[] Value() { return GetValueSpan().ToArray(); }
    }

    public sealed class Checkpoint : IDisposable
    {
        readonly IntPtr _h;
        internal Checkpoint(IntPtr h) { _h = h; }
        public void Save(string dir, ulong logSizeForFlush = 0)
        {
            IntPtr err;
            N.rocksdb_checkpoint_create(_h, dir, logSizeForFlush, out err);
            RocksDbException.ThrowIf(err);
        }
        public void Dispose() { N.rocksdb_checkpoint_object_destroy(_h); }
    }

    public sealed unsafe class RocksDb : IDisposable
    {
        // RocksDb's static initialisers (RocksDb.cs:16-18).
        internal static readonly ReadOptions DefaultReadOptions = new ReadOptions();
        internal static readonly OptionsHandle DefaultOptions = new DbOptions();
        internal static readonly WriteOptions DefaultWriteOptions = new WriteOptions();

        IntPtr _db;
        Dictionary<string, ColumnFamilyHandle> _cfs;
        // Managed references that live as long as the database (RocksDb.References).
        readonly object[] _references;

        RocksDb(IntPtr db, Dictionary<string, ColumnFamilyHandle> cfs, object[] refs)
        {
            _db = db;
            _cfs = cfs;
            _references = refs;
        }

        public IntPtr Handle { get { return _db; } }

        public object[] References { get { return _references; } }

        public static RocksDb Open(DbOptions options, string path, ColumnFamilies families)
        {
            var names = new string[families.Count];
            var opts = new IntPtr[families.Count];
            var refs = new object[families.Count + 1];
            for (int i = 0; i < names.Length; i++)
            {
                names[i] = families[i].Key;
                opts[i] = families[i].Value.Handle;
                refs[i] = families[i].Value;
            }
            refs[names.Length] = options;
            var handles = new IntPtr[names.Length];
            byte[] utf8 = System.Text.Encoding.UTF8.GetBytes(path);
            IntPtr p = Marshal.AllocHGlobal(utf8.Length + 1);
            Marshal.Copy(utf8, 0, p, utf8.Length);
            Marshal.WriteByte(p, utf8.Length, 0);
            IntPtr err;
            IntPtr db;
            try { db = N.rocksdb_open_column_families(options.Handle, p, names.Length, names, opts, handles, out err); }
            finally { Marshal.FreeHGlobal(p); }
            RocksDbException.ThrowIf(err);
            var map = new Dictionary<string, ColumnFamilyHandle>();
            for (int i = 0; i < names.Length; i++) map.Add(names[i], new ColumnFamilyHandle(handles[i]));
            return new RocksDb(db, map, refs);
        }

        ~RocksDb() { Release(); }

        public void Dispose()
        {
            Release();
            GC.SuppressFinalize(this);
        }

        void Release()
        {
            if (_cfs != null)
            {
                foreach (var cf in _cfs.Values) cf.Destroy();
                _cfs = null;
            }
            if (_db != IntPtr.Zero)
            {
                IntPtr h = _db;
                _db = IntPtr.Zero;
                N.rocksdb_close(h);
            }
        }

        public ColumnFamilyHandle GetColumnFamily(string name) { return _cfs[name]; }

        public byte[] Get(byte[] key, ColumnFamilyHandle cf, ReadOptions ro = null)
        {
            UIntPtr len;
            IntPtr err;
            IntPtr v = N.rocksdb_get_cf(_db, (ro ?? DefaultReadOptions).Handle, cf.Handle, key, (UIntPtr)key.Length, out len, out err);
            RocksDbException.ThrowIf(err);
            if (v == IntPtr.Zero) return null;
            var result = new byte[(ulong)len];
            Marshal.Copy(v, result, 0, (int)len);
            N.rocksdb_free(v);
            return result;
        }

        /// <summary>Get with an ISpanDeserializer: the deserializer reads the library's buffer in place.</summary>
        public T Get<T>(ReadOnlySpan<byte> key, ISpanDeserializer<T> deserializer, ColumnFamilyHandle cf)
        {
            UIntPtr len;
            IntPtr err, v;
            fixed (byte* k = &MemoryMarshal.GetReference(key))
                v = N.rocksdb_get_cf(_db, DefaultReadOptions.Handle, cf.Handle, k, (UIntPtr)key.Length, out len, out err);
            RocksDbException.ThrowIf(err);
            if (v == IntPtr.Zero) return default(T);
            try { return deserializer.Deserialize(new ReadOnlySpan<byte>((void*)v, (int)len)); }
            finally { N.rocksdb_free(v); }
        }

        public void Put(byte[] key, byte[] value, ColumnFamilyHandle cf, WriteOptions wo = null)
        {
            IntPtr err;
            N.rocksdb_put_cf(_db, (wo ?? DefaultWriteOptions).Handle, cf.Handle, key, (UIntPtr)key.Length, value, (UIntPtr)value.Length, out err);
            RocksDbException.ThrowIf(err);
        }

        public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, ColumnFamilyHandle cf, WriteOptions wo = null)
        {
            IntPtr err;
            fixed (byte* k = &MemoryMarshal.GetReference(key))
            fixed (byte* v = &MemoryMarshal.GetReference(value))
                N.rocksdb_put_cf(_db, (wo ?? DefaultWriteOptions).Handle, cf.Handle, k, (UIntPtr)key.Length, v, (UIntPtr)value.Length, out err);
            RocksDbException.ThrowIf(err);
        }

        public void Remove(byte[] key, ColumnFamilyHandle cf, WriteOptions wo = null)
        {
            IntPtr err;
            N.rocksdb_delete_cf(_db, (wo ?? DefaultWriteOptions).Handle, cf.Handle, key, (UIntPtr)key.Length, out err);
            RocksDbException.ThrowIf(err);
        }

        public void Write(WriteBatch batch, WriteOptions wo = null)
        {
            IntPtr err;
            N.rocksdb_write(_db, (wo ?? DefaultWriteOptions).Handle, batch.Handle, out err);
            RocksDbException.ThrowIf(err);
        }

        /// <summary>MultiGet(byte[][] keys, ColumnFamilyHandle[] cf): (key, value or null) pairs in key order.</summary>
        public KeyValuePair<byte[], byte[]>[] MultiGet(byte[][] keys, ColumnFamilyHandle[] cfs)
        {
            int n = keys.Length;
            var pinned = new GCHandle[n];
            var keyPtrs = new IntPtr[n];
            var keyLens = new UIntPtr[n];
            var vals = new IntPtr[n];
            var valLens = new UIntPtr[n];
            var errs = new IntPtr[n];
            var cfh = new IntPtr[n];
            for (int i = 0; i < n; i++)
            {
                keyLens[i] = new UIntPtr((uint)keys[i].Length);
                pinned[i] = GCHandle.Alloc(keys[i], GCHandleType.Pinned);
                keyPtrs[i] = pinned[i].AddrOfPinnedObject();
                cfh[i] = cfs[i].Handle;
            }
            N.rocksdb_multi_get_cf(_db, DefaultReadOptions.Handle, cfh, (UIntPtr)n, keyPtrs, keyLens, vals, valLens, errs);
            foreach (var g in pinned) g.Free();
            var result = new KeyValuePair<byte[], byte[]>[n];
            for (int i = 0; i < n; i++)
            {
                byte[] v = null;
                if (vals[i] != IntPtr.Zero)
                {
                    v = new byte[(ulong)valLens[i]];
                    Marshal.Copy(vals[i], v, 0, v.Length);
                    N.rocksdb_free(vals[i]);
                }
                result[i] = new KeyValuePair<byte[], byte[]>(keys[i], v);
            }
            foreach (var e in errs) RocksDbException.ThrowIf(e);
            return result;
        }

        public Iterator NewIterator(ColumnFamilyHandle cf, ReadOptions ro = null)
        {
            return new Iterator(N.rocksdb_create_iterator_cf(_db, (ro ?? DefaultReadOptions).Handle, cf.Handle));
        }

        public Checkpoint Checkpoint()
        {
            IntPtr err;
            IntPtr cp = N.rocksdb_checkpoint_object_create(_db, out err);
            RocksDbException.ThrowIf(err);
            return new Checkpoint(cp);
        }

        public void CompactRange(byte[] start, byte[] limit, ColumnFamilyHandle cf)
        {
            N.rocksdb_compact_range_cf(_db, cf.Handle, start, (UIntPtr)(start == null ? 0 : start.Length), limit, (UIntPtr)(limit == null ? 0 : limit.Length));
        }
    }
}
