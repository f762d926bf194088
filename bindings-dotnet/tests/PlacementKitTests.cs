// SPDX-License-Identifier: Apache-2.0
// The placement kit (kit/place-solistore.sh and kit/Solistore.RocksDbSharp.targets) on fake
// build and publish directories laid out like a RocksDbSharp 11.1.2 host's: the resulting files,
// and which library RocksDbSharp's documented probe order (hosts-dotnet.md §2) would load from
// them, before and after. Category "Kit": run once (with the solistore engine), not per engine.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using System.Security.Cryptography;
using System.Text;
using NUnit.Framework;

namespace Solistore.Tests
{
    /// <summary>RocksDbSharp 11.1.2's AutoNativeImport search on Linux x64, as hosts-dotnet.md §2
    /// describes it: passes "-jemalloc", "", "-musl"; in each pass, for each base directory, each
    /// sub-path and each versioned name lib&lt;name&gt;&lt;suffix&gt;.so, then the bare names (dlopen's
    /// own search); the first dlopen(RTLD_NOW) that succeeds wins.</summary>
    public static class RocksDbSharpProbe
    {
        static readonly string[] SubPaths = { "runtimes/linux-x64/native", "native/amd64", "native", "amd64", "" };

        public static List<string> Candidates(IEnumerable<string> baseDirs, string version)
        {
            var parts = version.Split('.');
            var names = new List<string>();
            for (int i = parts.Length; i >= 1; i--) names.Add("rocksdb-" + string.Join(".", parts.Take(i)));
            names.Add("rocksdb");
            var bases = new List<string>();
            foreach (var b in baseDirs) if (!bases.Contains(b)) bases.Add(b);
            var list = new List<string>();
            foreach (string suffix in new[] { "-jemalloc", "", "-musl" })
            {
                foreach (string b in bases)
                {
                    foreach (string sub in SubPaths)
                        foreach (string n in names)
                            list.Add(Path.Combine(sub == "" ? b : Path.Combine(b, sub), "lib" + n + suffix + ".so"));
                    foreach (string n in names) list.Add("lib" + n + suffix + ".so");
                }
            }
            return list;
        }

        [DllImport("libdl.so.2")] static extern IntPtr dlopen(string file, int mode);
        [DllImport("libdl.so.2")] static extern IntPtr dlsym(IntPtr handle, string name);

        /// <summary>The candidate that loads first, or null.</summary>
        public static string Winner(IEnumerable<string> baseDirs, string version, out IntPtr handle)
        {
            foreach (string c in Candidates(baseDirs, version))
            {
                if (c.Contains("/") && !File.Exists(c)) continue;
                handle = dlopen(c, 2);
                if (handle != IntPtr.Zero) return c;
            }
            handle = IntPtr.Zero;
            return null;
        }

        public static bool Exports(IntPtr handle, string symbol) { return dlsym(handle, symbol) != IntPtr.Zero; }
    }

    [TestFixture]
    [Category("Kit")]
    public class PlacementKitTests
    {
        Scratch _dir;
        string _kit, _lib, _libHash;

        [DllImport("libc.so.6", SetLastError = true)] static extern IntPtr readlink(string path, byte[] buf, IntPtr size);

        static string ReadLink(string path)
        {
            var buf = new byte[4096];
            long n = (long)readlink(path, buf, (IntPtr)buf.Length);
            return n < 0 ? null : Encoding.UTF8.GetString(buf, 0, (int)n);
        }

        static string Sha(string file)
        {
            using (var sha = SHA256.Create())
            using (var f = File.OpenRead(file))
                return BitConverter.ToString(sha.ComputeHash(f));
        }

        [SetUp]
        public void SetUp()
        {
            _dir = new Scratch("kit");
            string here = Path.GetDirectoryName(typeof(PlacementKitTests).Assembly.Location);
            _kit = Environment.GetEnvironmentVariable("SOLISTORE_DOTNET_KIT") ?? Path.GetFullPath(Path.Combine(here, "..", "kit"));
            _lib = Environment.GetEnvironmentVariable("SOLISTORE_LIB") ?? LoadedLibrary.Path;
            Assert.IsTrue(File.Exists(Path.Combine(_kit, "place-solistore.sh")), "kit at " + _kit);
            Assert.IsTrue(File.Exists(_lib) && Path.GetFileName(_lib) == "libsolistore.so", "libsolistore.so at " + _lib);
            _libHash = Sha(_lib);
        }

        [TearDown] public void TearDown() { _dir.Cleanup(); }

        static int Run(string file, string args, string cwd, out string output)
        {
            var psi = new ProcessStartInfo(file, args)
            {
                UseShellExecute = false,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                WorkingDirectory = cwd,
            };
            using (var p = Process.Start(psi))
            {
                var err = p.StandardError.ReadToEndAsync();
                string stdout = p.StandardOutput.ReadToEnd();
                p.WaitForExit();
                output = stdout + err.Result;
                return p.ExitCode;
            }
        }

        static string Q(string s) { return "'" + s.Replace("'", "'\\''") + "'"; }

        /// <summary>A host's output directory as `dotnet build` leaves it with the RocksDB package:
        /// the package's three natives under runtimes/linux-x64/native (the plain one loadable,
        /// here a copy of Debian's librocksdb when installed; the jemalloc one failing to load
        /// as it does without libjemalloc), and optionally a flattened librocksdb.so in the root
        /// that is a symlink to a file that must not be written through.</summary>
        string FakeHostDir(string name, out string protectedFile)
        {
            string bin = _dir.Path(name);
            string native = Path.Combine(bin, "runtimes", "linux-x64", "native");
            Directory.CreateDirectory(native);
            File.WriteAllText(Path.Combine(bin, "Host.dll"), "not really an assembly");
            const string realRocksDb = "/usr/lib/x86_64-linux-gnu/librocksdb.so.7.8";
            if (File.Exists(realRocksDb)) File.Copy(realRocksDb, Path.Combine(native, "librocksdb.so"));
            else File.WriteAllText(Path.Combine(native, "librocksdb.so"), "stand-in for the package's librocksdb.so");
            File.WriteAllText(Path.Combine(native, "librocksdb-jemalloc.so"), "needs libjemalloc.so.2: does not load");
            File.WriteAllText(Path.Combine(native, "librocksdb-musl.so"), "musl build: does not load");
            protectedFile = _dir.Path(name + "-elsewhere.so");
            File.WriteAllText(protectedFile, "a file outside the output directory");
            Assert.AreEqual(0, Symlink(protectedFile, Path.Combine(bin, "librocksdb.so")));
            return bin;
        }

        [DllImport("libc.so.6", SetLastError = true)] static extern int symlink(string target, string linkpath);
        static int Symlink(string target, string link) { return symlink(target, link); }

        static readonly string[] NativeNames = { "librocksdb-11.1.2-jemalloc.so", "librocksdb.so", "librocksdb-jemalloc.so", "librocksdb-musl.so" };

        [Test]
        public void Script_CopiesUnderEveryProbedName_AndTheProbeThenFindsSolistore()
        {
            string prot;
            string bin = FakeHostDir("bin", out prot);
            string slotName = Path.Combine(bin, "runtimes", "linux-x64", "native", "librocksdb-11.1.2-jemalloc.so");
            IntPtr h;
            if (File.Exists("/usr/lib/x86_64-linux-gnu/librocksdb.so.7.8"))
            {
                // Negative control: before placement the package's librocksdb.so (#28) is what loads.
                string before = RocksDbSharpProbe.Winner(new[] { bin, bin }, "11.1.2", out h);
                Assert.AreEqual(Path.Combine(bin, "runtimes", "linux-x64", "native", "librocksdb.so"), before);
            }
            string output;
            int rc = Run("/bin/sh", Q(Path.Combine(_kit, "place-solistore.sh")) + " --lib " + Q(_lib) + " " + Q(bin), _dir.Root, out output);
            Assert.AreEqual(0, rc, output);
            foreach (string n in NativeNames)
            {
                string f = Path.Combine(bin, "runtimes", "linux-x64", "native", n);
                Assert.IsNull(ReadLink(f), f + " is a copy, not a link");
                Assert.AreEqual(_libHash, Sha(f), f + " holds libsolistore.so");
                StringAssert.Contains("placed " + f, output);
            }
            string flat = Path.Combine(bin, "librocksdb.so");
            Assert.IsNull(ReadLink(flat), "the flattened symlink was replaced by a copy");
            Assert.AreEqual(_libHash, Sha(flat));
            Assert.AreEqual("a file outside the output directory", File.ReadAllText(prot), "never written through a symlink");
            Assert.AreEqual("not really an assembly", File.ReadAllText(Path.Combine(bin, "Host.dll")));
            // RocksDbSharp started from its output directory (CWD = AppContext.BaseDirectory = bin).
            string winner = RocksDbSharpProbe.Winner(new[] { bin, bin }, "11.1.2", out h);
            Assert.AreEqual(slotName, winner, "the probe's first hit");
            Assert.IsTrue(RocksDbSharpProbe.Exports(h, "rocksdb_open_column_families"));
            Assert.AreEqual(slotName, LoadedLibrary.Find(slotName, "rocksdb_free"), "the loaded code is the slot's");
            // Started from elsewhere, bin is still a base path (AppContext.BaseDirectory): the slot wins too.
            string other = _dir.Path("cwd");
            Directory.CreateDirectory(other);
            Assert.AreEqual(slotName, RocksDbSharpProbe.Winner(new[] { other, bin }, "11.1.2", out h));
            // Idempotent: a second run over the placed files succeeds and changes nothing.
            rc = Run("/bin/sh", Q(Path.Combine(_kit, "place-solistore.sh")) + " --lib " + Q(_lib) + " " + Q(bin), _dir.Root, out output);
            Assert.AreEqual(0, rc, output);
            Assert.AreEqual(_libHash, Sha(slotName));
        }

        [Test]
        public void Script_LinkModeAndSlotDirectory()
        {
            string prot;
            string bin = FakeHostDir("bin", out prot);
            string slot = _dir.Path("slot");
            string output;
            int rc = Run("/bin/sh", Q(Path.Combine(_kit, "place-solistore.sh")) + " --link --slot " + Q(slot) + " --lib " + Q(_lib) + " " + Q(bin), _dir.Root, out output);
            Assert.AreEqual(0, rc, output);
            foreach (string n in NativeNames)
                Assert.AreEqual(_lib, ReadLink(Path.Combine(bin, "runtimes", "linux-x64", "native", n)), n);
            Assert.AreEqual(_lib, ReadLink(Path.Combine(bin, "librocksdb.so")));
            Assert.AreEqual("a file outside the output directory", File.ReadAllText(prot));
            Assert.AreEqual(_lib, ReadLink(Path.Combine(slot, "librocksdb-11.1.2-jemalloc.so")));
            StringAssert.Contains("export LD_LIBRARY_PATH=" + slot, output);
            // Another binding version changes only the probed name.
            rc = Run("/bin/sh", Q(Path.Combine(_kit, "place-solistore.sh")) + " --link --version 11.8.1 --lib " + Q(_lib) + " " + Q(bin), _dir.Root, out output);
            Assert.AreEqual(0, rc, output);
            Assert.AreEqual(_lib, ReadLink(Path.Combine(bin, "runtimes", "linux-x64", "native", "librocksdb-11.8.1-jemalloc.so")));
        }

        [Test]
        public void Script_RefusesBadInput()
        {
            string output;
            string script = Q(Path.Combine(_kit, "place-solistore.sh"));
            Assert.AreEqual(2, Run("/bin/sh", script + " --lib " + Q(_dir.Path("no-such.so")) + " " + Q(_dir.Root), _dir.Root, out output), output);
            StringAssert.Contains("libsolistore.so not found", output);
            Assert.AreEqual(2, Run("/bin/sh", script + " --lib " + Q(_lib) + " " + Q(_dir.Path("not-a-dir")), _dir.Root, out output), output);
            StringAssert.Contains("is not a directory", output);
            Assert.AreEqual(2, Run("/bin/sh", script, _dir.Root, out output), output);
            StringAssert.Contains("place-solistore.sh [--link] [--lib PATH]", output, "prints its usage");
        }

        [Test]
        public void Targets_PlaceAfterBuildAndAfterPublish()
        {
            string xbuild = new[] { "/usr/bin/xbuild", "/usr/bin/msbuild" }.FirstOrDefault(File.Exists);
            if (xbuild == null) Assert.Ignore("SKIPPED: no xbuild or msbuild here to run the .targets file");
            string prot;
            string bin = FakeHostDir("bin", out prot);
            string publish = _dir.Path("publish");
            string proj = _dir.Path("Host.proj");
            // A stand-in host project: Build and Publish leave the package files where the SDK
            // would; the imported targets then run after each.
            File.WriteAllText(proj,
                "<Project xmlns=\"http://schemas.microsoft.com/developer/msbuild/2003\" DefaultTargets=\"Build\">\n" +
                "  <PropertyGroup><OutDir>bin/</OutDir><PublishDir>publish/</PublishDir></PropertyGroup>\n" +
                "  <Target Name=\"Build\"><Message Importance=\"high\" Text=\"host build\" /></Target>\n" +
                "  <Target Name=\"Publish\" DependsOnTargets=\"Build\">\n" +
                "    <MakeDir Directories=\"$(PublishDir)\" />\n" +
                "    <WriteLinesToFile File=\"$(PublishDir)librocksdb.so\" Lines=\"flattened package file\" Overwrite=\"true\" />\n" +
                "  </Target>\n" +
                "  <Import Project=\"" + Path.Combine(_kit, "Solistore.RocksDbSharp.targets") + "\" />\n" +
                "</Project>\n");
            string output;
            int rc = Run(xbuild, "/nologo /v:minimal /t:Publish /p:SolistoreLink=true /p:SolistoreLibrary=" + Q(_lib) + " " + Q(proj), _dir.Root, out output);
            Assert.AreEqual(0, rc, output);
            foreach (string n in NativeNames)
            {
                Assert.AreEqual(_lib, ReadLink(Path.Combine(bin, "runtimes", "linux-x64", "native", n)), "after Build: " + n);
                Assert.AreEqual(_lib, ReadLink(Path.Combine(publish, "runtimes", "linux-x64", "native", n)), "after Publish: " + n);
            }
            Assert.AreEqual(_lib, ReadLink(Path.Combine(bin, "librocksdb.so")));
            Assert.AreEqual(_lib, ReadLink(Path.Combine(publish, "librocksdb.so")), "the flattened file in the publish root");
            Assert.AreEqual("a file outside the output directory", File.ReadAllText(prot));
            // Without a library the build fails with the targets' message.
            rc = Run(xbuild, "/nologo /v:minimal /t:Build /p:SolistoreLibrary=" + Q(_dir.Path("missing.so")) + " " + Q(proj), _dir.Root, out output);
            Assert.AreNotEqual(0, rc, output);
            StringAssert.Contains("Solistore: libsolistore.so not found", output);
            // SolistorePlaceNative=false turns it off.
            string bin2 = FakeHostDir("bin2", out prot);
            rc = Run(xbuild, "/nologo /v:minimal /t:Build /p:OutDir=bin2/ /p:SolistorePlaceNative=false " + Q(proj), _dir.Root, out output);
            Assert.AreEqual(0, rc, output);
            Assert.IsFalse(File.Exists(Path.Combine(bin2, "runtimes", "linux-x64", "native", "librocksdb-11.1.2-jemalloc.so")));
        }
    }
}
