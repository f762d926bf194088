// SPDX-License-Identifier: Apache-2.0
// Errors: SolistoreException and its StatusCode (parsed from the message prefix, which RocksDB's
// Status::ToString writes byte-exact: "IO error: ...", "Invalid argument: ..."), and the one
// helper that turns a non-NULL errptr into that exception, freeing the string with rocksdb_free.
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace Solistore
{
    /// <summary>RocksDB's Status::Code, with its numeric values.</summary>
    public enum StatusCode
    {
        Ok = 0,
        NotFound = 1,
        Corruption = 2,
        NotSupported = 3,
        InvalidArgument = 4,
        IOError = 5,
        MergeInProgress = 6,
        Incomplete = 7,
        ShutdownInProgress = 8,
        TimedOut = 9,
        Aborted = 10,
        Busy = 11,
        Expired = 12,
        TryAgain = 13,
        CompactionTooLarge = 14,
        ColumnFamilyDropped = 15,
        /// <summary>A message without one of RocksDB's status prefixes.</summary>
        Unknown = -1,
    }

    /// <summary>An error reported by the library (through errptr), with its status code.</summary>
    public class SolistoreException : Exception
    {
        // The prefixes of Status::ToString, in the order of StatusCode.
        static readonly string[] Prefixes =
        {
            "NotFound", "Corruption", "Not implemented", "Invalid argument", "IO error",
            "Merge in progress", "Result incomplete", "Shutdown in progress", "Operation timed out",
            "Operation aborted", "Resource busy", "Operation expired", "Operation failed. Try again.",
            "Compaction too large", "Column family dropped",
        };

        /// <summary>The status code named by the message prefix (Unknown when none matches).</summary>
        public StatusCode Code { get; }

        /// <summary>The message after "prefix: " (the whole message when Code is Unknown).</summary>
        public string Detail { get; }

        public SolistoreException(string message) : base(message)
        {
            StatusCode code;
            string detail;
            Parse(message, out code, out detail);
            Code = code;
            Detail = detail;
        }

        public SolistoreException(StatusCode code, string detail)
            : base(code == StatusCode.Unknown || code == StatusCode.Ok ? detail : PrefixOf(code) + ": " + detail)
        {
            Code = code;
            Detail = detail;
        }

        /// <summary>The prefix RocksDB writes for a code ("Invalid argument" for InvalidArgument).</summary>
        public static string PrefixOf(StatusCode code)
        {
            int i = (int)code - 1;
            return i >= 0 && i < Prefixes.Length ? Prefixes[i] : null;
        }

        /// <summary>Splits a status message into its code and detail, as rust-rocksdb's kind() does:
        /// the text before the first ':' must equal one of the prefixes.</summary>
        public static void Parse(string message, out StatusCode code, out string detail)
        {
            code = StatusCode.Unknown;
            detail = message ?? "";
            if (message == null) return;
            for (int i = 0; i < Prefixes.Length; i++)
            {
                string p = Prefixes[i];
                if (message.Length > p.Length && message[p.Length] == ':' && string.CompareOrdinal(message, 0, p, 0, p.Length) == 0)
                {
                    code = (StatusCode)(i + 1);
                    int start = p.Length + 1;
                    if (start < message.Length && message[start] == ' ') start++;
                    detail = message.Substring(start);
                    return;
                }
            }
        }
    }

    /// <summary>errptr handling and C strings.</summary>
    internal static unsafe class Errors
    {
        /// <summary>Throws for a non-zero errptr, after freeing it.</summary>
        public static void Check(IntPtr errptr)
        {
            if (errptr != IntPtr.Zero) throw Take(errptr);
        }

        /// <summary>The exception for errptr; frees errptr.</summary>
        public static SolistoreException Take(IntPtr errptr)
        {
            string message = Utf8.TakeCString(errptr);
            return new SolistoreException(message);
        }

        /// <summary>The exception for a function the loaded library does not export.</summary>
        public static SolistoreException Missing(EntryPointNotFoundException e, string function)
        {
            return new SolistoreException(StatusCode.NotSupported,
                function + " is not exported by the loaded library (" + e.Message + ")");
        }
    }

    /// <summary>UTF-8 conversions for paths and C strings.</summary>
    internal static unsafe class Utf8
    {
        /// <summary>A NUL-terminated UTF-8 copy of s in unmanaged memory (free with Marshal.FreeHGlobal).</summary>
        public static IntPtr Alloc(string s)
        {
            if (s == null) throw new ArgumentNullException("s");
            byte[] bytes = Encoding.UTF8.GetBytes(s);
            IntPtr p = Marshal.AllocHGlobal(bytes.Length + 1);
            Marshal.Copy(bytes, 0, p, bytes.Length);
            Marshal.WriteByte(p, bytes.Length, 0);
            return p;
        }

        /// <summary>Reads a NUL-terminated UTF-8 string without freeing it.</summary>
        public static string CString(IntPtr p)
        {
            if (p == IntPtr.Zero) return null;
            byte* b = (byte*)p;
            int n = 0;
            while (b[n] != 0) n++;
            return Encoding.UTF8.GetString(b, n);
        }

        /// <summary>Reads a malloc'd NUL-terminated string and frees it with rocksdb_free.</summary>
        public static string TakeCString(IntPtr p)
        {
            if (p == IntPtr.Zero) return null;
            try { return CString(p); }
            finally { Native.rocksdb_free(p); }
        }

        /// <summary>Copies a malloc'd buffer of len bytes into a new array and frees it with rocksdb_free.</summary>
        public static byte[] TakeBuffer(IntPtr p, UIntPtr len)
        {
            if (p == IntPtr.Zero) return null;
            try
            {
                byte[] result = new byte[checked((int)(ulong)len)];
                if (result.Length > 0) Marshal.Copy(p, result, 0, result.Length);
                return result;
            }
            finally { Native.rocksdb_free(p); }
        }
    }
}
