// SPDX-License-Identifier: Apache-2.0
// Db: an open database and its column families. Every open lists column families (just
// "default" for the plain Open), so each Db has a handle for every family it opened and all data
// calls go through the *_cf functions; a null ColumnFamilyHandle means "default". Values come back
// as fresh arrays (the library's malloc'd buffer is copied, then freed with rocksdb_free), or are
// copied into a caller's span by GetInto. Dispose closes the database once the iterators,
// snapshots and checkpoint objects made from it are disposed too (they keep it open until then).
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace Solistore
{
    /// <summary>A column family of an open Db. It belongs to the Db, which destroys it on Dispose
    /// or DropColumnFamily; it is valid only with that Db.</summary>
    public sealed class ColumnFamilyHandle
    {
        static readonly Action<IntPtr> Destroy = Native.rocksdb_column_family_handle_destroy;
        internal readonly NativeHandle Handle;

        public string Name { get; }
        public Db Db { get; }

        internal ColumnFamilyHandle(Db db, string name, IntPtr ptr)
        {
            Handle = NativeHandle.Own(() => ptr, Destroy);
            Handle.Hold(db.Handle);
            Db = db;
            Name = name;
        }
    }

    /// <summary>Read and write options used when a call is given none (library defaults).</summary>
    internal static class Defaults
    {
        public static readonly ReadOptions Read = new ReadOptions();
        public static readonly WriteOptions Write = new WriteOptions();
    }

    public sealed unsafe class Db : IDisposable
    {
        static readonly Action<IntPtr> Close = Native.rocksdb_close;
        internal readonly NativeHandle Handle;
        readonly object _lock = new object();
        readonly Dictionary<string, ColumnFamilyHandle> _cfs = new Dictionary<string, ColumnFamilyHandle>();
        ColumnFamilyHandle _default;

        public string Path { get; }

        Db(NativeHandle handle, string path)
        {
            Handle = handle;
            Path = path;
        }

        // ------------------------------------------------------------ open, close

        /// <summary>Opens the database at path with its default column family only.</summary>
        public static Db Open(Options options, string path)
        {
            return Open(options, path, new[] { "default" });
        }

        /// <summary>Opens the database with the given column families ("default" among them).
        /// cfOptions gives each family's options (same order); null (or a null entry) uses `options`.</summary>
        public static Db Open(Options options, string path, IList<string> columnFamilies, IList<Options> cfOptions = null)
        {
            if (options == null) throw new ArgumentNullException("options");
            if (path == null) throw new ArgumentNullException("path");
            if (columnFamilies == null) throw new ArgumentNullException("columnFamilies");
            int n = columnFamilies.Count;
            if (cfOptions != null && cfOptions.Count != n) throw new ArgumentException("one Options per column family", "cfOptions");
            string[] names = new string[n];
            columnFamilies.CopyTo(names, 0);
            var added = new List<SafeHandle>();
            IntPtr pathPtr = Utf8.Alloc(path);
            try
            {
                IntPtr[] opts = new IntPtr[n];
                IntPtr[] handles = new IntPtr[n];
                for (int i = 0; i < n; i++)
                {
                    Options o = cfOptions == null || cfOptions[i] == null ? options : cfOptions[i];
                    SafeHandle h = o.Handle;
                    Lease.AddRef(h);
                    added.Add(h);
                    opts[i] = h.DangerousGetHandle();
                }
                IntPtr err = IntPtr.Zero;
                NativeHandle dbh;
                using (var o = new Lease(options.Handle))
                {
                    IntPtr op = o.Ptr;
                    dbh = NativeHandle.Own(() => Native.rocksdb_open_column_families(op, pathPtr, n, names, opts, handles, out err), Close);
                }
                if (err != IntPtr.Zero || dbh.IsInvalid)
                {
                    foreach (IntPtr h in handles)
                        if (h != IntPtr.Zero) Native.rocksdb_column_family_handle_destroy(h);
                    dbh.Dispose();
                    if (err != IntPtr.Zero) throw Errors.Take(err);
                    throw new SolistoreException(StatusCode.Unknown, "rocksdb_open_column_families returned NULL without an error");
                }
                var db = new Db(dbh, path);
                for (int i = 0; i < n; i++) db._cfs[names[i]] = new ColumnFamilyHandle(db, names[i], handles[i]);
                db._cfs.TryGetValue("default", out db._default);
                return db;
            }
            finally
            {
                foreach (var h in added) h.DangerousRelease();
                Marshal.FreeHGlobal(pathPtr);
            }
        }

        /// <summary>Closes the database (deferred while iterators, snapshots or checkpoint
        /// objects made from it are still undisposed). Idempotent.</summary>
        public void Dispose()
        {
            lock (_lock)
            {
                foreach (var cf in _cfs.Values) cf.Handle.Dispose();
                _cfs.Clear();
            }
            Handle.Dispose();
        }

        /// <summary>The names of the column families of the database at path.</summary>
        public static string[] ListColumnFamilies(Options options, string path)
        {
            IntPtr pathPtr = Utf8.Alloc(path);
            try
            {
                IntPtr err;
                UIntPtr len;
                IntPtr list;
                using (var o = new Lease(options.Handle)) list = Native.rocksdb_list_column_families(o.Ptr, pathPtr, out len, out err);
                if (err != IntPtr.Zero)
                {
                    Native.rocksdb_list_column_families_destroy(list, len);
                    throw Errors.Take(err);
                }
                try
                {
                    var names = new string[(int)(ulong)len];
                    for (int i = 0; i < names.Length; i++) names[i] = Utf8.CString(Marshal.ReadIntPtr(list, i * IntPtr.Size));
                    return names;
                }
                finally { Native.rocksdb_list_column_families_destroy(list, len); }
            }
            finally { Marshal.FreeHGlobal(pathPtr); }
        }

        /// <summary>Deletes the database at path (every file it owns). A missing path is not an error.</summary>
        public static void Destroy(Options options, string path)
        {
            IntPtr pathPtr = Utf8.Alloc(path);
            try
            {
                IntPtr err;
                using (var o = new Lease(options.Handle)) Native.rocksdb_destroy_db(o.Ptr, pathPtr, out err);
                Errors.Check(err);
            }
            finally { Marshal.FreeHGlobal(pathPtr); }
        }

        // ------------------------------------------------------------ column families

        public ColumnFamilyHandle DefaultColumnFamily { get { return GetColumnFamily("default"); } }

        public ColumnFamilyHandle GetColumnFamily(string name)
        {
            ColumnFamilyHandle cf;
            if (!TryGetColumnFamily(name, out cf)) throw new ArgumentException("no open column family named " + name, "name");
            return cf;
        }

        public bool TryGetColumnFamily(string name, out ColumnFamilyHandle cf)
        {
            lock (_lock) return _cfs.TryGetValue(name, out cf);
        }

        /// <summary>The names of the open column families.</summary>
        public string[] ColumnFamilyNames
        {
            get { lock (_lock) { var k = new string[_cfs.Count]; _cfs.Keys.CopyTo(k, 0); return k; } }
        }

        public ColumnFamilyHandle CreateColumnFamily(string name, Options options = null)
        {
            if (name == null) throw new ArgumentNullException("name");
            IntPtr err, h;
            using (var d = new Lease(Handle))
            using (var o = new Lease((options ?? DefaultCfOptions.Value).Handle))
                h = Native.rocksdb_create_column_family(d.Ptr, o.Ptr, name, out err);
            if (err != IntPtr.Zero)
            {
                if (h != IntPtr.Zero) Native.rocksdb_column_family_handle_destroy(h);
                throw Errors.Take(err);
            }
            var cf = new ColumnFamilyHandle(this, name, h);
            lock (_lock) _cfs[name] = cf;
            return cf;
        }

        public void DropColumnFamily(string name)
        {
            ColumnFamilyHandle cf = GetColumnFamily(name);
            IntPtr err;
            using (var d = new Lease(Handle))
            using (var c = new Lease(cf.Handle))
                Native.rocksdb_drop_column_family(d.Ptr, c.Ptr, out err);
            Errors.Check(err);
            lock (_lock) _cfs.Remove(name);
            cf.Handle.Dispose();
        }

        static class DefaultCfOptions
        {
            public static readonly Options Value = new Options();
        }

        internal NativeHandle Cf(ColumnFamilyHandle cf)
        {
            if (cf == null)
            {
                if (_default == null) throw new InvalidOperationException("the database was opened without its default column family");
                return _default.Handle;
            }
            if (cf.Db != this) throw new ArgumentException("column family " + cf.Name + " belongs to another Db", "cf");
            return cf.Handle;
        }

        static NativeHandle Ro(ReadOptions ro)
        {
            if (ro == null) return Defaults.Read.Handle;
            ro.CheckSnapshot();
            return ro.Handle;
        }

        static NativeHandle Wo(WriteOptions wo) { return (wo ?? Defaults.Write).Handle; }

        static void NotNull(object o, string name) { if (o == null) throw new ArgumentNullException(name); }

        // ------------------------------------------------------------ writes

        public void Put(byte[] key, byte[] value, ColumnFamilyHandle cf = null, WriteOptions writeOptions = null)
        {
            NotNull(key, "key");
            NotNull(value, "value");
            IntPtr err;
            using (var l = new CallLeases(Handle, Wo(writeOptions), Cf(cf)))
                Native.rocksdb_put_cf(l.Db, l.Options, l.Cf, key, (UIntPtr)key.Length, value, (UIntPtr)value.Length, out err);
            Errors.Check(err);
        }

        public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, ColumnFamilyHandle cf = null, WriteOptions writeOptions = null)
        {
            IntPtr err;
            using (var l = new CallLeases(Handle, Wo(writeOptions), Cf(cf)))
            fixed (byte* k = &MemoryMarshal.GetReference(key))
            fixed (byte* v = &MemoryMarshal.GetReference(value))
                Native.rocksdb_put_cf(l.Db, l.Options, l.Cf, k, (UIntPtr)key.Length, v, (UIntPtr)value.Length, out err);
            Errors.Check(err);
        }

        public void Delete(byte[] key, ColumnFamilyHandle cf = null, WriteOptions writeOptions = null)
        {
            NotNull(key, "key");
            IntPtr err;
            using (var l = new CallLeases(Handle, Wo(writeOptions), Cf(cf)))
                Native.rocksdb_delete_cf(l.Db, l.Options, l.Cf, key, (UIntPtr)key.Length, out err);
            Errors.Check(err);
        }

        public void Delete(ReadOnlySpan<byte> key, ColumnFamilyHandle cf = null, WriteOptions writeOptions = null)
        {
            IntPtr err;
            using (var l = new CallLeases(Handle, Wo(writeOptions), Cf(cf)))
            fixed (byte* k = &MemoryMarshal.GetReference(key))
                Native.rocksdb_delete_cf(l.Db, l.Options, l.Cf, k, (UIntPtr)key.Length, out err);
            Errors.Check(err);
        }

        /// <summary>Deletes the keys in [start, end).</summary>
        public void DeleteRange(byte[] start, byte[] end, ColumnFamilyHandle cf = null, WriteOptions writeOptions = null)
        {
            NotNull(start, "start");
            NotNull(end, "end");
            IntPtr err;
            using (var l = new CallLeases(Handle, Wo(writeOptions), Cf(cf)))
                Native.rocksdb_delete_range_cf(l.Db, l.Options, l.Cf, start, (UIntPtr)start.Length, end, (UIntPtr)end.Length, out err);
            Errors.Check(err);
        }

        /// <summary>Applies the batch atomically (across column families).</summary>
        public void Write(WriteBatch batch, WriteOptions writeOptions = null)
        {
            NotNull(batch, "batch");
            IntPtr err;
            using (var d = new Lease(Handle))
            using (var w = new Lease(Wo(writeOptions)))
            using (var b = new Lease(batch.Handle))
                Native.rocksdb_write(d.Ptr, w.Ptr, b.Ptr, out err);
            Errors.Check(err);
        }

        // ------------------------------------------------------------ reads

        /// <summary>The value of key, or null when it is absent (an empty value is an empty array).</summary>
        public byte[] Get(byte[] key, ColumnFamilyHandle cf = null, ReadOptions readOptions = null)
        {
            NotNull(key, "key");
            IntPtr err, v;
            UIntPtr len;
            using (var l = new CallLeases(Handle, Ro(readOptions), Cf(cf)))
                v = Native.rocksdb_get_cf(l.Db, l.Options, l.Cf, key, (UIntPtr)key.Length, out len, out err);
            return TakeValue(v, len, err);
        }

        public byte[] Get(ReadOnlySpan<byte> key, ColumnFamilyHandle cf = null, ReadOptions readOptions = null)
        {
            IntPtr err, v;
            UIntPtr len;
            using (var l = new CallLeases(Handle, Ro(readOptions), Cf(cf)))
            fixed (byte* k = &MemoryMarshal.GetReference(key))
                v = Native.rocksdb_get_cf(l.Db, l.Options, l.Cf, k, (UIntPtr)key.Length, out len, out err);
            return TakeValue(v, len, err);
        }

        /// <summary>Copies the value of key into destination (as much as fits) and returns the
        /// value's full length, or -1 when the key is absent.</summary>
        public int GetInto(ReadOnlySpan<byte> key, Span<byte> destination, ColumnFamilyHandle cf = null, ReadOptions readOptions = null)
        {
            IntPtr err, v;
            UIntPtr len;
            using (var l = new CallLeases(Handle, Ro(readOptions), Cf(cf)))
            fixed (byte* k = &MemoryMarshal.GetReference(key))
                v = Native.rocksdb_get_cf(l.Db, l.Options, l.Cf, k, (UIntPtr)key.Length, out len, out err);
            if (err != IntPtr.Zero)
            {
                if (v != IntPtr.Zero) Native.rocksdb_free(v);
                throw Errors.Take(err);
            }
            if (v == IntPtr.Zero) return -1;
            try
            {
                int n = checked((int)(ulong)len);
                new ReadOnlySpan<byte>((void*)v, Math.Min(n, destination.Length)).CopyTo(destination);
                return n;
            }
            finally { Native.rocksdb_free(v); }
        }

        static byte[] TakeValue(IntPtr v, UIntPtr len, IntPtr err)
        {
            if (err != IntPtr.Zero)
            {
                if (v != IntPtr.Zero) Native.rocksdb_free(v);
                throw Errors.Take(err);
            }
            return Utf8.TakeBuffer(v, len);
        }

        /// <summary>The values of keys in one column family, in key order (null for absent keys).</summary>
        public byte[][] MultiGet(byte[][] keys, ColumnFamilyHandle cf = null, ReadOptions readOptions = null)
        {
            NotNull(keys, "keys");
            var cfs = new ColumnFamilyHandle[keys.Length];
            for (int i = 0; i < cfs.Length; i++) cfs[i] = cf;
            return MultiGet(keys, cfs, readOptions);
        }

        /// <summary>The value of keys[i] in cfs[i], for each i (null for absent keys). Throws the
        /// first per-key error after freeing every result.</summary>
        public byte[][] MultiGet(byte[][] keys, ColumnFamilyHandle[] cfs, ReadOptions readOptions = null)
        {
            NotNull(keys, "keys");
            NotNull(cfs, "cfs");
            if (cfs.Length != keys.Length) throw new ArgumentException("one column family per key", "cfs");
            int n = keys.Length;
            var pins = new GCHandle[n];
            var keyPtrs = new IntPtr[n];
            var keyLens = new UIntPtr[n];
            var cfPtrs = new IntPtr[n];
            var vals = new IntPtr[n];
            var valLens = new UIntPtr[n];
            var errs = new IntPtr[n];
            var leased = new List<SafeHandle>();
            try
            {
                for (int i = 0; i < n; i++)
                {
                    NotNull(keys[i], "keys[" + i + "]");
                    pins[i] = GCHandle.Alloc(keys[i], GCHandleType.Pinned);
                    keyPtrs[i] = pins[i].AddrOfPinnedObject();
                    keyLens[i] = (UIntPtr)keys[i].Length;
                    SafeHandle h = Cf(cfs[i]);
                    Lease.AddRef(h);
                    leased.Add(h);
                    cfPtrs[i] = h.DangerousGetHandle();
                }
                using (var d = new Lease(Handle))
                using (var r = new Lease(Ro(readOptions)))
                    Native.rocksdb_multi_get_cf(d.Ptr, r.Ptr, cfPtrs, (UIntPtr)n, keyPtrs, keyLens, vals, valLens, errs);
            }
            finally
            {
                foreach (var p in pins) if (p.IsAllocated) p.Free();
                foreach (var h in leased) h.DangerousRelease();
            }
            var result = new byte[n][];
            SolistoreException first = null;
            for (int i = 0; i < n; i++)
            {
                if (errs[i] != IntPtr.Zero)
                {
                    var e = Errors.Take(errs[i]);
                    if (first == null) first = e;
                }
                result[i] = Utf8.TakeBuffer(vals[i], valLens[i]);
            }
            if (first != null) throw first;
            return result;
        }

        /// <summary>An iterator over a column family (unpositioned: call a Seek first).</summary>
        public Iterator NewIterator(ColumnFamilyHandle cf = null, ReadOptions readOptions = null)
        {
            NativeHandle ro = Ro(readOptions);
            SafeHandle[] deps = readOptions == null ? new SafeHandle[0] : readOptions.Dependencies();
            IntPtr it;
            using (var d = new Lease(Handle))
            using (var r = new Lease(ro))
            using (var c = new Lease(Cf(cf)))
                it = Native.rocksdb_create_iterator_cf(d.Ptr, r.Ptr, c.Ptr);
            return new Iterator(it, Handle, ro, deps);
        }

        /// <summary>A consistent view of the database as of now (use it through ReadOptions.SetSnapshot).</summary>
        public Snapshot CreateSnapshot()
        {
            IntPtr s;
            IntPtr dp;
            using (var d = new Lease(Handle))
            {
                dp = d.Ptr;
                s = Native.rocksdb_create_snapshot(dp);
            }
            return new Snapshot(s, dp, Handle);
        }

        /// <summary>A checkpoint object for this database (Checkpoint.Save makes the copies).</summary>
        public Checkpoint Checkpoint()
        {
            IntPtr err, cp;
            using (var d = new Lease(Handle)) cp = Native.rocksdb_checkpoint_object_create(d.Ptr, out err);
            if (err != IntPtr.Zero)
            {
                if (cp != IntPtr.Zero) Native.rocksdb_checkpoint_object_destroy(cp);
                throw Errors.Take(err);
            }
            return new Checkpoint(cp, Handle);
        }

        /// <summary>A self-contained copy of the database in dir, which must not exist yet.</summary>
        public void CreateCheckpoint(string dir, ulong logSizeForFlush = 0)
        {
            using (var cp = Checkpoint()) cp.Save(dir, logSizeForFlush);
        }

        // ------------------------------------------------------------ maintenance

        /// <summary>Writes the column family's memtable to a table file.</summary>
        public void Flush(ColumnFamilyHandle cf = null, bool wait = true)
        {
            IntPtr fo = Native.rocksdb_flushoptions_create();
            try
            {
                Native.rocksdb_flushoptions_set_wait(fo, Bool.B(wait));
                IntPtr err;
                using (var d = new Lease(Handle))
                using (var c = new Lease(Cf(cf)))
                    Native.rocksdb_flush_cf(d.Ptr, fo, c.Ptr, out err);
                Errors.Check(err);
            }
            finally { Native.rocksdb_flushoptions_destroy(fo); }
        }

        /// <summary>Compacts the keys in [start, limit] (null: unbounded on that side).</summary>
        public void CompactRange(byte[] start, byte[] limit, ColumnFamilyHandle cf = null)
        {
            using (var d = new Lease(Handle))
            using (var c = new Lease(Cf(cf)))
                Native.rocksdb_compact_range_cf(d.Ptr, c.Ptr, start, (UIntPtr)(start == null ? 0 : start.Length), limit, (UIntPtr)(limit == null ? 0 : limit.Length));
        }

        /// <summary>A property such as "rocksdb.estimate-num-keys", or null when unknown.</summary>
        public string GetProperty(string name, ColumnFamilyHandle cf = null)
        {
            NotNull(name, "name");
            IntPtr v;
            using (var d = new Lease(Handle))
            using (var c = new Lease(Cf(cf)))
                v = Native.rocksdb_property_value_cf(d.Ptr, c.Ptr, name);
            return Utf8.TakeCString(v);
        }
    }
}
