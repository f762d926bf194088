// SPDX-License-Identifier: Apache-2.0
// WriteBatch: puts and deletes applied together by Db.Write, atomically across column families.
// The batch copies keys and values when they are added.
using System;
using System.Runtime.InteropServices;

namespace Solistore
{
    public sealed unsafe class WriteBatch : IDisposable
    {
        static readonly Action<IntPtr> Destroy = Native.rocksdb_writebatch_destroy;
        internal readonly NativeHandle Handle;

        public WriteBatch()
        {
            Handle = NativeHandle.Own(Native.rocksdb_writebatch_create, Destroy);
        }

        public void Dispose() { Handle.Dispose(); }

        /// <summary>The number of records (puts and deletes) in the batch.</summary>
        public int Count
        {
            get { using (var b = new Lease(Handle)) return Native.rocksdb_writebatch_count(b.Ptr); }
        }

        public WriteBatch Clear()
        {
            using (var b = new Lease(Handle)) Native.rocksdb_writebatch_clear(b.Ptr);
            return this;
        }

        public WriteBatch Put(byte[] key, byte[] value, ColumnFamilyHandle cf = null)
        {
            if (key == null) throw new ArgumentNullException("key");
            if (value == null) throw new ArgumentNullException("value");
            using (var b = new Lease(Handle))
            {
                if (cf == null) Native.rocksdb_writebatch_put(b.Ptr, key, (UIntPtr)key.Length, value, (UIntPtr)value.Length);
                else
                    using (var c = new Lease(cf.Handle))
                        Native.rocksdb_writebatch_put_cf(b.Ptr, c.Ptr, key, (UIntPtr)key.Length, value, (UIntPtr)value.Length);
            }
            return this;
        }

        public WriteBatch Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, ColumnFamilyHandle cf = null)
        {
            using (var b = new Lease(Handle))
            fixed (byte* k = &MemoryMarshal.GetReference(key))
            fixed (byte* v = &MemoryMarshal.GetReference(value))
            {
                if (cf == null) Native.rocksdb_writebatch_put(b.Ptr, k, (UIntPtr)key.Length, v, (UIntPtr)value.Length);
                else
                    using (var c = new Lease(cf.Handle))
                        Native.rocksdb_writebatch_put_cf(b.Ptr, c.Ptr, k, (UIntPtr)key.Length, v, (UIntPtr)value.Length);
            }
            return this;
        }

        public WriteBatch Delete(byte[] key, ColumnFamilyHandle cf = null)
        {
            if (key == null) throw new ArgumentNullException("key");
            using (var b = new Lease(Handle))
            {
                if (cf == null) Native.rocksdb_writebatch_delete(b.Ptr, key, (UIntPtr)key.Length);
                else
                    using (var c = new Lease(cf.Handle))
                        Native.rocksdb_writebatch_delete_cf(b.Ptr, c.Ptr, key, (UIntPtr)key.Length);
            }
            return this;
        }

        public WriteBatch Delete(ReadOnlySpan<byte> key, ColumnFamilyHandle cf = null)
        {
            using (var b = new Lease(Handle))
            fixed (byte* k = &MemoryMarshal.GetReference(key))
            {
                if (cf == null) Native.rocksdb_writebatch_delete(b.Ptr, k, (UIntPtr)key.Length);
                else
                    using (var c = new Lease(cf.Handle))
                        Native.rocksdb_writebatch_delete_cf(b.Ptr, c.Ptr, k, (UIntPtr)key.Length);
            }
            return this;
        }
    }
}
