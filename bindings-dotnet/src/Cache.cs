// SPDX-License-Identifier: Apache-2.0
// Shared memory budgets: Cache (an LRU block cache) and WriteBufferManager (a memtable budget,
// optionally charged to a cache). Both are reference counted inside the library: table options,
// options and open databases that use them keep them alive, so disposing them early is safe.
using System;

namespace Solistore
{
    public sealed class Cache : IDisposable
    {
        static readonly Action<IntPtr> Destroy = Native.rocksdb_cache_destroy;
        internal readonly NativeHandle Handle;

        Cache(NativeHandle handle) { Handle = handle; }

        /// <summary>An LRU cache of `capacity` bytes.</summary>
        public static Cache CreateLru(ulong capacity)
        {
            return new Cache(NativeHandle.Own(() => Native.rocksdb_cache_create_lru((UIntPtr)capacity), Destroy));
        }

        public void Dispose() { Handle.Dispose(); }

        /// <summary>Bytes held by the cache's entries now.</summary>
        public ulong Usage
        {
            get { using (var c = new Lease(Handle)) return (ulong)Native.rocksdb_cache_get_usage(c.Ptr); }
        }

        public ulong Capacity
        {
            get { using (var c = new Lease(Handle)) return (ulong)Native.rocksdb_cache_get_capacity(c.Ptr); }
        }
    }

    /// <summary>A memtable budget shared by databases (Options.SetWriteBufferManager). RocksDB
    /// 7.8.3's C API has no write buffer manager: there the constructor throws a
    /// SolistoreException with StatusCode.NotSupported.</summary>
    public sealed class WriteBufferManager : IDisposable
    {
        static readonly Action<IntPtr> Destroy = Native.rocksdb_write_buffer_manager_destroy;
        internal readonly NativeHandle Handle;

        /// <summary>A budget of bufferSize bytes charged to `cache`; allowStall makes writers wait
        /// when it is exceeded instead of forcing flushes.</summary>
        public WriteBufferManager(ulong bufferSize, Cache cache, bool allowStall = false)
        {
            try
            {
                using (var c = new Lease(cache.Handle))
                {
                    IntPtr cp = c.Ptr;
                    Handle = NativeHandle.Own(
                        () => Native.rocksdb_write_buffer_manager_create_with_cache((UIntPtr)bufferSize, cp, Bool.B(allowStall)),
                        Destroy);
                }
            }
            catch (EntryPointNotFoundException e)
            {
                throw Errors.Missing(e, "rocksdb_write_buffer_manager_create_with_cache");
            }
            if (Handle.IsInvalid) throw new SolistoreException(StatusCode.Unknown, "rocksdb_write_buffer_manager_create_with_cache returned NULL");
        }

        public void Dispose() { Handle.Dispose(); }

        /// <summary>Bytes of memtable memory charged to the budget now.</summary>
        public ulong MemoryUsage
        {
            get { using (var w = new Lease(Handle)) return (ulong)Native.rocksdb_write_buffer_manager_memory_usage(w.Ptr); }
        }
    }
}
