// SPDX-License-Identifier: Apache-2.0
// Test support: which engine this run is for (SOLISTORE_DOTNET_ENGINE=solistore|rocksdb, set by
// run-tests.sh, which also points LD_LIBRARY_PATH at that engine's files), the check that the
// libraries actually loaded are that engine's, and scratch directories.
using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.InteropServices;
using NUnit.Framework;

namespace Solistore.Tests
{
    public static class Engine
    {
        public static readonly string Name = Environment.GetEnvironmentVariable("SOLISTORE_DOTNET_ENGINE") ?? "";

        public static bool IsSolistore { get { return Name == "solistore"; } }
        public static bool IsRocksDb { get { return Name == "rocksdb"; } }

        /// <summary>Marks the running test ignored, with the reason in the report, when the engine is
        /// RocksDB 7.8.3 and `e` says it lacks a function (on solistore the exception propagates).</summary>
        public static void IgnoreIfMissingOnRocksDb(SolistoreException e)
        {
            if (IsRocksDb && e.Code == StatusCode.NotSupported && e.Message.Contains("is not exported"))
                Assert.Ignore("SKIPPED on librocksdb 7.8.3: " + e.Detail);
        }

        /// <summary>The same for an entry point the host replay's declarations could not bind.</summary>
        public static void IgnoreIfMissingOnRocksDb(EntryPointNotFoundException e, string function)
        {
            if (IsRocksDb) Assert.Ignore("SKIPPED on librocksdb 7.8.3: it does not export " + function + " (" + e.Message + ")");
        }

        /// <summary>Throws unless `path` (a resolved library path) is this engine's library.</summary>
        public static void Expect(string what, string path)
        {
            bool ok = path != null && (IsSolistore ? System.IO.Path.GetFileName(path) == "libsolistore.so"
                                                   : IsRocksDb && System.IO.Path.GetFileName(path).StartsWith("librocksdb.so.7.8", StringComparison.Ordinal));
            if (!ok)
                throw new InvalidOperationException(what + " loaded " + (path ?? "nothing") + ", which is not the " +
                    (Name == "" ? "(unset: SOLISTORE_DOTNET_ENGINE must be solistore or rocksdb)" : Name) + " engine");
        }
    }

    /// <summary>Runs once before every test of the assembly: refuses to run against the wrong library.</summary>
    [SetUpFixture]
    public class EngineCheck
    {
        [SetUp]
        public void CheckLoadedLibraries()
        {
            Engine.Expect("the binding's \"solistore\" import", LoadedLibrary.Path);
            Hosts.RocksDbSharpNative.rocksdb_free(IntPtr.Zero);
            Engine.Expect("the host replay's \"rocksdb\" import", LoadedLibrary.Find("librocksdb.so", "rocksdb_free"));
            Console.WriteLine("engine " + Engine.Name + ": " + LoadedLibrary.Path);
        }
    }

    /// <summary>Scratch directories under SOLISTORE_DOTNET_TMP (default: the system temp dir),
    /// removed by Cleanup unless SOLISTORE_DOTNET_KEEP=1.</summary>
    public sealed class Scratch
    {
        readonly string _root;

        public Scratch(string tag)
        {
            string baseDir = Environment.GetEnvironmentVariable("SOLISTORE_DOTNET_TMP");
            if (string.IsNullOrEmpty(baseDir)) baseDir = System.IO.Path.GetTempPath();
            _root = System.IO.Path.Combine(baseDir, "solistore-dotnet-" + tag + "-" + Guid.NewGuid().ToString("N").Substring(0, 12));
            Directory.CreateDirectory(_root);
        }

        public string Root { get { return _root; } }

        /// <summary>A path under the scratch root that does not exist yet.</summary>
        public string Path(string name) { return System.IO.Path.Combine(_root, name); }

        public void Cleanup()
        {
            if (Environment.GetEnvironmentVariable("SOLISTORE_DOTNET_KEEP") == "1") return;
            try { Directory.Delete(_root, true); }
            catch (IOException) { }
            catch (UnauthorizedAccessException) { }
        }
    }

    public static class Bytes
    {
        public static byte[] Of(string s) { return System.Text.Encoding.UTF8.GetBytes(s); }

        public static string Str(byte[] b) { return b == null ? null : System.Text.Encoding.UTF8.GetString(b); }

        public static string Str(ReadOnlySpan<byte> b) { return System.Text.Encoding.UTF8.GetString(b.ToArray()); }

        /// <summary>Asserts equal contents; quick on multi-megabyte arrays (CollectionAssert is not).</summary>
        public static void AssertSame(byte[] expected, byte[] actual)
        {
            Assert.IsNotNull(actual, "value");
            Assert.AreEqual(expected.Length, actual.Length, "length");
            for (int i = 0; i < expected.Length; i++)
                if (expected[i] != actual[i]) Assert.Fail("bytes differ at offset " + i + ": " + expected[i] + " != " + actual[i]);
        }

        /// <summary>Files under dir (recursively) whose bytes contain needle.</summary>
        public static List<string> FilesContaining(string dir, byte[] needle, out int scanned)
        {
            var hits = new List<string>();
            scanned = 0;
            foreach (string f in Directory.GetFiles(dir, "*", SearchOption.AllDirectories))
            {
                scanned++;
                byte[] data = File.ReadAllBytes(f);
                if (IndexOf(data, needle) >= 0) hits.Add(f);
            }
            return hits;
        }

        public static int IndexOf(byte[] hay, byte[] needle)
        {
            for (int i = 0; i + needle.Length <= hay.Length; i++)
            {
                int j = 0;
                while (j < needle.Length && hay[i + j] == needle[j]) j++;
                if (j == needle.Length) return i;
            }
            return -1;
        }
    }

    /// <summary>POSIX calls the tests need (mode 0700 directories, as Kommander creates them).</summary>
    public static class Posix
    {
        [DllImport("libc.so.6", SetLastError = true)] static extern int mkdir(string path, uint mode);

        public static void MkDir0700(string path)
        {
            if (mkdir(path, Convert.ToUInt32("700", 8)) != 0)
                throw new IOException("mkdir " + path + " failed: errno " + Marshal.GetLastWin32Error());
        }
    }
}
