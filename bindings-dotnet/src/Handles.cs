// SPDX-License-Identifier: Apache-2.0
// Handle lifetimes: NativeHandle, the one SafeHandle subclass that owns every native object of
// the binding (it calls the object's destroy function exactly once, from Dispose or from its
// critical finalizer), and Lease, which keeps a handle alive for the length of one native call.
// An object that must not outlive another (an iterator and its DB, read options and the snapshot
// or bound buffers they point at) Holds the other's handle: a DangerousAddRef released only after
// its own destroy, so finalizers may run in any order and an early Dispose only defers the
// destroy until the last holder is gone. Using a disposed object throws ObjectDisposedException
// instead of passing a dangling pointer to the library: SafeHandle itself refuses new references
// only once the count is zero, so NativeHandle keeps its own disposed flag, checked by every
// Lease and Hold after taking the reference.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;

namespace Solistore
{
    public sealed class NativeHandle : SafeHandle
    {
        readonly Action<IntPtr> _destroy;
        readonly object _lock = new object();
        List<SafeHandle> _held;
        int _disposed;

        NativeHandle(Action<IntPtr> destroy) : base(IntPtr.Zero, true)
        {
            _destroy = destroy;
        }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        /// <summary>True once Dispose (or the finalizer) ran, even while holders keep the native
        /// object alive.</summary>
        public bool IsDisposed { get { return Volatile.Read(ref _disposed) != 0 || IsClosed; } }

        protected override void Dispose(bool disposing)
        {
            Interlocked.Exchange(ref _disposed, 1);
            base.Dispose(disposing);
        }

        /// <summary>Takes ownership of a freshly created native object. `create` runs after the
        /// SafeHandle exists, so no pointer is lost between creation and ownership; a NULL result
        /// gives an invalid handle, which the caller turns into an error.</summary>
        internal static NativeHandle Own(Func<IntPtr> create, Action<IntPtr> destroy)
        {
            var h = new NativeHandle(destroy);
            h.SetHandle(create());
            return h;
        }

        /// <summary>Keeps `other` alive until this handle is destroyed (or Drop is called).</summary>
        internal void Hold(SafeHandle other)
        {
            Lease.AddRef(other);
            lock (_lock)
            {
                if (_held == null) _held = new List<SafeHandle>();
                _held.Add(other);
            }
        }

        /// <summary>Releases one Hold on `other`.</summary>
        internal void Drop(SafeHandle other)
        {
            bool removed;
            lock (_lock) { removed = _held != null && _held.Remove(other); }
            if (removed) other.DangerousRelease();
        }

        /// <summary>The handles this one holds now.</summary>
        internal SafeHandle[] Held()
        {
            lock (_lock) { return _held == null ? new SafeHandle[0] : _held.ToArray(); }
        }

        protected override bool ReleaseHandle()
        {
            _destroy(handle);
            SafeHandle[] held;
            lock (_lock)
            {
                held = _held == null ? null : _held.ToArray();
                _held = null;
            }
            if (held != null)
                foreach (var h in held) h.DangerousRelease();
            return true;
        }
    }

    /// <summary>A reference on a handle for the duration of a native call (`using`).</summary>
    internal struct Lease : IDisposable
    {
        readonly SafeHandle _handle;
        readonly bool _added;
        public readonly IntPtr Ptr;

        public Lease(SafeHandle handle)
        {
            _handle = handle;
            _added = false;
            Ptr = IntPtr.Zero;
            if (handle != null)
            {
                AddRef(handle);
                _added = true;
                Ptr = handle.DangerousGetHandle();
            }
        }

        /// <summary>DangerousAddRef, refused (ObjectDisposedException) for a disposed NativeHandle.</summary>
        internal static void AddRef(SafeHandle handle)
        {
            bool added = false;
            handle.DangerousAddRef(ref added);
            var nh = handle as NativeHandle;
            if (nh != null && nh.IsDisposed)
            {
                handle.DangerousRelease();
                throw new ObjectDisposedException("Solistore object", "the object was disposed");
            }
        }

        public void Dispose()
        {
            if (_added) _handle.DangerousRelease();
        }
    }

    /// <summary>Leases on a database, an options object and a column family, for one call
    /// (the usual argument triple of the *_cf functions).</summary>
    internal struct CallLeases : IDisposable
    {
        readonly Lease _db, _options, _cf;

        public CallLeases(SafeHandle db, SafeHandle options, SafeHandle cf)
        {
            _db = new Lease(db);
            _options = default(Lease);
            _cf = default(Lease);
            try
            {
                _options = new Lease(options);
                _cf = new Lease(cf);
            }
            catch
            {
                _options.Dispose();
                _db.Dispose();
                throw;
            }
        }

        public IntPtr Db { get { return _db.Ptr; } }
        public IntPtr Options { get { return _options.Ptr; } }
        public IntPtr Cf { get { return _cf.Ptr; } }

        public void Dispose()
        {
            _cf.Dispose();
            _options.Dispose();
            _db.Dispose();
        }
    }

    /// <summary>Unmanaged memory freed with Marshal.FreeHGlobal (iterate bounds).</summary>
    internal sealed class HGlobal : SafeHandle
    {
        public readonly int Length;

        public HGlobal(byte[] bytes) : base(IntPtr.Zero, true)
        {
            Length = bytes.Length;
            SetHandle(Marshal.AllocHGlobal(Math.Max(1, bytes.Length)));
            Marshal.Copy(bytes, 0, handle, bytes.Length);
        }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        protected override bool ReleaseHandle()
        {
            Marshal.FreeHGlobal(handle);
            return true;
        }
    }

    internal static class Bool
    {
        public static byte B(bool v) { return v ? (byte)1 : (byte)0; }
    }
}
