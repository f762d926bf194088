// SPDX-License-Identifier: Apache-2.0
// Quickstart: open a database with two column families, write a batch, read it back by key and
// by range, take a snapshot, make a checkpoint and reopen it. Usage: Quickstart.exe [dir]
// (by default a fresh temp directory, removed at the end). Run with `make run-dotnet` from the
// repository root.
using System;
using System.IO;
using System.Text;
using Solistore;

static class Quickstart
{
    static byte[] B(string s) { return Encoding.UTF8.GetBytes(s); }
    static string S(byte[] b) { return b == null ? "(none)" : Encoding.UTF8.GetString(b); }

    static int Main(string[] args)
    {
        string dir = args.Length > 0 ? args[0] : Path.Combine(Path.GetTempPath(), "solistore-quickstart-" + Guid.NewGuid().ToString("N"));
        string path = Path.Combine(dir, "db");
        Directory.CreateDirectory(dir);
        Console.WriteLine("library: " + LoadedLibrary.Path);
        using (var options = new Options().SetCreateIfMissing().SetCreateMissingColumnFamilies())
        {
            using (var db = Db.Open(options, path, new[] { "default", "users" }))
            {
                var users = db.GetColumnFamily("users");
                using (var batch = new WriteBatch())
                {
                    batch.Put(B("config/version"), B("1"));
                    batch.Put(B("alice"), B("admin"), users);
                    batch.Put(B("bob"), B("reader"), users);
                    batch.Put(B("carol"), B("writer"), users);
                    using (var sync = new WriteOptions().SetSync()) db.Write(batch, sync);
                }
                Console.WriteLine("get config/version = " + S(db.Get(B("config/version"))));
                Console.WriteLine("get users/bob      = " + S(db.Get(B("bob"), users)));
                using (var snapshot = db.CreateSnapshot())
                using (var atSnapshot = new ReadOptions().SetSnapshot(snapshot))
                {
                    db.Delete(B("bob"), users);
                    Console.WriteLine("after delete: bob = " + S(db.Get(B("bob"), users)) + ", at the snapshot bob = " + S(db.Get(B("bob"), users, atSnapshot)));
                }
                using (var it = db.NewIterator(users))
                {
                    for (it.SeekToFirst(); it.Valid(); it.Next())
                        Console.WriteLine("scan users: " + S(it.Key()) + " = " + S(it.Value()));
                    it.CheckStatus();
                }
                db.CreateCheckpoint(Path.Combine(dir, "checkpoint"));
            }
            using (var copy = Db.Open(options, Path.Combine(dir, "checkpoint"), Db.ListColumnFamilies(options, Path.Combine(dir, "checkpoint"))))
                Console.WriteLine("checkpoint copy: users/alice = " + S(copy.Get(B("alice"), copy.GetColumnFamily("users"))));
            try
            {
                using (var missing = new Options()) Db.Open(missing, Path.Combine(dir, "nothing-here"));
            }
            catch (SolistoreException e)
            {
                Console.WriteLine("expected error: code " + e.Code + ": " + e.Message);
            }
        }
        Console.WriteLine("quickstart: ok (" + dir + ")");
        if (args.Length == 0) Directory.Delete(dir, true);
        return 0;
    }
}
