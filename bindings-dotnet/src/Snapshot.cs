// SPDX-License-Identifier: Apache-2.0
// Snapshot (a consistent read view, released with rocksdb_release_snapshot) and Checkpoint
// (rocksdb_checkpoint_t: makes openable copies of a live database). Both keep their Db open
// until disposed.
using System;

namespace Solistore
{
    public sealed class Snapshot : IDisposable
    {
        internal readonly NativeHandle Handle;

        internal Snapshot(IntPtr snapshot, IntPtr db, NativeHandle dbHandle)
        {
            Handle = NativeHandle.Own(() => snapshot, s => Native.rocksdb_release_snapshot(db, s));
            if (Handle.IsInvalid) throw new SolistoreException(StatusCode.Unknown, "rocksdb_create_snapshot returned NULL");
            try { Handle.Hold(dbHandle); }
            catch
            {
                Handle.Dispose();
                throw;
            }
        }

        /// <summary>Releases the snapshot (deferred while read options or iterators use it).</summary>
        public void Dispose() { Handle.Dispose(); }
    }

    public sealed class Checkpoint : IDisposable
    {
        static readonly Action<IntPtr> Destroy = Native.rocksdb_checkpoint_object_destroy;
        internal readonly NativeHandle Handle;

        internal Checkpoint(IntPtr checkpoint, NativeHandle dbHandle)
        {
            Handle = NativeHandle.Own(() => checkpoint, Destroy);
            if (Handle.IsInvalid) throw new SolistoreException(StatusCode.Unknown, "rocksdb_checkpoint_object_create returned NULL");
            try { Handle.Hold(dbHandle); }
            catch
            {
                Handle.Dispose();
                throw;
            }
        }

        public void Dispose() { Handle.Dispose(); }

        /// <summary>Writes an openable copy of the database into dir, which must not exist
        /// ("Invalid argument: Directory exists" otherwise). logSizeForFlush 0 flushes the
        /// memtables first, so the copy needs no WAL replay beyond what it contains.</summary>
        public void Save(string dir, ulong logSizeForFlush = 0)
        {
            if (dir == null) throw new ArgumentNullException("dir");
            IntPtr err;
            using (var c = new Lease(Handle)) Native.rocksdb_checkpoint_create(c.Ptr, dir, logSizeForFlush, out err);
            Errors.Check(err);
        }
    }
}
