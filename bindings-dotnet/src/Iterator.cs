// SPDX-License-Identifier: Apache-2.0
// Iterator: a cursor over one column family, a point-in-time view taken at creation (or at the
// read options' snapshot). It keeps its Db, read options, snapshot and bound buffers alive until
// disposed. Key()/Value() copy; KeySpan()/ValueSpan() point into the iterator's memory and are
// valid only until the next move or Dispose. Reading or moving an invalid iterator throws
// InvalidOperationException (RocksDB would assert), never reaches the library.
using System;
using System.Runtime.InteropServices;

namespace Solistore
{
    public sealed unsafe class Iterator : IDisposable
    {
        static readonly Action<IntPtr> Destroy = Native.rocksdb_iter_destroy;
        internal readonly NativeHandle Handle;

        internal Iterator(IntPtr it, NativeHandle db, NativeHandle readOptions, SafeHandle[] dependencies)
        {
            Handle = NativeHandle.Own(() => it, Destroy);
            if (Handle.IsInvalid) throw new SolistoreException(StatusCode.Unknown, "rocksdb_create_iterator_cf returned NULL");
            try
            {
                Handle.Hold(db);
                Handle.Hold(readOptions);
                foreach (var d in dependencies) Handle.Hold(d);
            }
            catch
            {
                Handle.Dispose();
                throw;
            }
        }

        public void Dispose() { Handle.Dispose(); }

        public bool Valid()
        {
            using (var i = new Lease(Handle)) return Native.rocksdb_iter_valid(i.Ptr) != 0;
        }

        public Iterator SeekToFirst()
        {
            using (var i = new Lease(Handle)) Native.rocksdb_iter_seek_to_first(i.Ptr);
            return this;
        }

        public Iterator SeekToLast()
        {
            using (var i = new Lease(Handle)) Native.rocksdb_iter_seek_to_last(i.Ptr);
            return this;
        }

        /// <summary>Positions at the first key at or after `key`.</summary>
        public Iterator Seek(byte[] key)
        {
            if (key == null) throw new ArgumentNullException("key");
            using (var i = new Lease(Handle)) Native.rocksdb_iter_seek(i.Ptr, key, (UIntPtr)key.Length);
            return this;
        }

        public Iterator Seek(ReadOnlySpan<byte> key)
        {
            using (var i = new Lease(Handle))
            fixed (byte* k = &MemoryMarshal.GetReference(key))
                Native.rocksdb_iter_seek(i.Ptr, k, (UIntPtr)key.Length);
            return this;
        }

        /// <summary>Positions at the last key at or before `key`.</summary>
        public Iterator SeekForPrev(byte[] key)
        {
            if (key == null) throw new ArgumentNullException("key");
            using (var i = new Lease(Handle)) Native.rocksdb_iter_seek_for_prev(i.Ptr, key, (UIntPtr)key.Length);
            return this;
        }

        public Iterator SeekForPrev(ReadOnlySpan<byte> key)
        {
            using (var i = new Lease(Handle))
            fixed (byte* k = &MemoryMarshal.GetReference(key))
                Native.rocksdb_iter_seek_for_prev(i.Ptr, k, (UIntPtr)key.Length);
            return this;
        }

        public Iterator Next()
        {
            using (var i = new Lease(Handle))
            {
                RequireValid(i.Ptr);
                Native.rocksdb_iter_next(i.Ptr);
            }
            return this;
        }

        public Iterator Prev()
        {
            using (var i = new Lease(Handle))
            {
                RequireValid(i.Ptr);
                Native.rocksdb_iter_prev(i.Ptr);
            }
            return this;
        }

        public byte[] Key() { return KeySpan().ToArray(); }

        public byte[] Value() { return ValueSpan().ToArray(); }

        /// <summary>The current key, in place: valid until the iterator moves or is disposed.</summary>
        public ReadOnlySpan<byte> KeySpan()
        {
            using (var i = new Lease(Handle))
            {
                RequireValid(i.Ptr);
                UIntPtr len;
                IntPtr p = Native.rocksdb_iter_key(i.Ptr, out len);
                return new ReadOnlySpan<byte>((void*)p, checked((int)(ulong)len));
            }
        }

        /// <summary>The current value, in place: valid until the iterator moves or is disposed.</summary>
        public ReadOnlySpan<byte> ValueSpan()
        {
            using (var i = new Lease(Handle))
            {
                RequireValid(i.Ptr);
                UIntPtr len;
                IntPtr p = Native.rocksdb_iter_value(i.Ptr, out len);
                return new ReadOnlySpan<byte>((void*)p, checked((int)(ulong)len));
            }
        }

        /// <summary>Throws the error that ended the iteration, if any (an invalid iterator is
        /// either at the end or failed; this tells which).</summary>
        public void CheckStatus()
        {
            IntPtr err;
            using (var i = new Lease(Handle)) Native.rocksdb_iter_get_error(i.Ptr, out err);
            Errors.Check(err);
        }

        static void RequireValid(IntPtr it)
        {
            if (Native.rocksdb_iter_valid(it) == 0) throw new InvalidOperationException("the iterator is not positioned on an entry (Valid() is false)");
        }
    }
}
