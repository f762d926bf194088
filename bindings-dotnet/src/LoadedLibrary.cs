// SPDX-License-Identifier: Apache-2.0
// LoadedLibrary: which file the binding's native calls go to (Linux). The counterpart of
// RocksDbSharp's NativeImport.Auto.LoadedPath: after the first call into the library, Path
// names the file that defines rocksdb_free for the "solistore" import, with symlinks resolved
// (libsolistore.so, or a real librocksdb when it was put in that place).
using System;
using System.Runtime.InteropServices;

namespace Solistore
{
    public static class LoadedLibrary
    {
        const int RTLD_NOW = 2, RTLD_NOLOAD = 4;

        [StructLayout(LayoutKind.Sequential)]
        struct DlInfo
        {
            public IntPtr dli_fname, dli_fbase, dli_sname, dli_saddr;
        }

        [DllImport("libdl.so.2")] static extern IntPtr dlopen(string file, int mode);
        [DllImport("libdl.so.2")] static extern IntPtr dlsym(IntPtr handle, string name);
        [DllImport("libdl.so.2")] static extern int dlclose(IntPtr handle);
        [DllImport("libdl.so.2")] static extern int dladdr(IntPtr addr, out DlInfo info);
        [DllImport("libc.so.6")] static extern IntPtr realpath(string path, IntPtr resolved);

        /// <summary>The resolved path of the library the "solistore" import loaded (after a first
        /// call), or null when it is not loaded or the platform has no libdl.</summary>
        public static string Path
        {
            get
            {
                // Make sure the import is resolved: a call that allocates nothing.
                Native.rocksdb_free(IntPtr.Zero);
                return Find("lib" + Native.Library + ".so", "rocksdb_free");
            }
        }

        /// <summary>The resolved path of the already-loaded library `file` (as dlopen would find
        /// it) that defines `symbol`, or null.</summary>
        public static string Find(string file, string symbol)
        {
            try
            {
                IntPtr h = dlopen(file, RTLD_NOW | RTLD_NOLOAD);
                if (h == IntPtr.Zero) return null;
                try
                {
                    IntPtr sym = dlsym(h, symbol);
                    DlInfo info;
                    if (sym == IntPtr.Zero || dladdr(sym, out info) == 0 || info.dli_fname == IntPtr.Zero) return null;
                    string name = Utf8.CString(info.dli_fname);
                    IntPtr real = realpath(name, IntPtr.Zero);
                    if (real == IntPtr.Zero) return name;
                    try { return Utf8.CString(real); }
                    finally { free(real); }
                }
                finally { dlclose(h); }
            }
            catch (DllNotFoundException) { return null; }
            catch (EntryPointNotFoundException) { return null; }
        }

        [DllImport("libc.so.6")] static extern void free(IntPtr p);
    }
}
