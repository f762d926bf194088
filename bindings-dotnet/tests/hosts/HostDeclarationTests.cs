// SPDX-License-Identifier: Apache-2.0
// The host replay's declarations are exactly the hosts' 63 functions, and the loaded engine
// exports all of them (RocksDB 7.8.3: all but the four write-buffer-manager ones).
using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Runtime.InteropServices;
using NUnit.Framework;

namespace Solistore.Tests.Hosts
{
    [TestFixture]
    public class HostDeclarationTests
    {
        static IEnumerable<MethodInfo> Imports()
        {
            return typeof(RocksDbSharpNative).GetMethods(BindingFlags.Public | BindingFlags.Static)
                .Where(m => m.GetCustomAttributes(typeof(DllImportAttribute), false).Length > 0);
        }

        [Test]
        public void DeclaresExactlyTheHostFunctions()
        {
            var declared = new SortedSet<string>(Imports().Select(m => m.Name), StringComparer.Ordinal);
            var expected = new SortedSet<string>(RocksDbSharpNative.HostFunctions, StringComparer.Ordinal);
            Assert.AreEqual(63, expected.Count, "hosts-used.txt has 63 functions");
            CollectionAssert.AreEqual(expected, declared);
            foreach (var m in Imports())
            {
                // byte for unsigned char, UIntPtr for size_t; no bool or int-sized booleans.
                foreach (var p in m.GetParameters())
                    Assert.AreNotEqual(typeof(bool), p.ParameterType, m.Name + "(" + p.Name + ")");
                Assert.AreNotEqual(typeof(bool), m.ReturnType, m.Name);
            }
        }

        static string Shape(MethodInfo m)
        {
            // Enums marshal as their underlying type (RocksDbSharp's Recovery is an int).
            Func<Type, string> t = x =>
            {
                Type e = x.IsByRef ? x.GetElementType() : x;
                string name = (e.IsEnum ? Enum.GetUnderlyingType(e) : e).FullName;
                return x.IsByRef ? name + "&" : name;
            };
            return t(m.ReturnType) + " " + m.Name + "(" + string.Join(", ", m.GetParameters().Select(p => (p.IsOut ? "out " : "") + t(p.ParameterType))) + ")";
        }

        [Test]
        public void TheBindingsRawLayerUsesTheSameShapes()
        {
            // Every host-shaped declaration of a function the binding also declares has an
            // identical twin in Solistore.Native: the ABI the hosts exercise is the one the binding uses.
            var raw = new HashSet<string>(typeof(Native).GetMethods(BindingFlags.Public | BindingFlags.Static)
                .Where(m => m.GetCustomAttributes(typeof(DllImportAttribute), false).Length > 0).Select(Shape));
            var rawNames = new HashSet<string>(typeof(Native).GetMethods(BindingFlags.Public | BindingFlags.Static).Select(m => m.Name));
            int shared = 0;
            var differ = new List<string>();
            foreach (var m in Imports())
            {
                if (!rawNames.Contains(m.Name)) continue;
                shared++;
                if (!raw.Contains(Shape(m))) differ.Add(Shape(m));
            }
            Assert.IsEmpty(differ, "host shapes with no identical declaration in Solistore.Native");
            Assert.That(shared, Is.GreaterThanOrEqualTo(60), "declarations compared");
        }

        [Test]
        public void TheEngineExportsThem()
        {
            var missing = new List<string>();
            foreach (string f in RocksDbSharpNative.HostFunctions)
                if (LoadedLibrary.Find("librocksdb.so", f) == null) missing.Add(f);
            if (Engine.IsRocksDb)
            {
                CollectionAssert.AreEquivalent(RocksDbSharpNative.MissingIn783, missing, "librocksdb 7.8.3 lacks exactly the write-buffer-manager four");
                Console.WriteLine("librocksdb 7.8.3 does not export: " + string.Join(", ", missing) + " (their tests are skipped on it)");
            }
            else
            {
                Assert.IsEmpty(missing, "functions libsolistore does not export");
            }
        }
    }
}
