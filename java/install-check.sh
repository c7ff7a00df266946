#!/usr/bin/env bash
# The README's promise, checked: a fresh Maven project outside the repository depends on
# the installed runtime (io.github.fastwire-fbe:fastwire-runtime, `mvn install`), generates code for
# schemas/proto.fbe and round-trips the seed account, in Java and in Kotlin.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
"$here/mvn.sh" -pl runtime install -DskipTests
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for lang in java kotlin; do
    dir="$work/$lang"
    mkdir -p "$dir/src/main/$lang/app"
    if [ "$lang" = kotlin ]; then
        plugin='<plugin><groupId>org.jetbrains.kotlin</groupId><artifactId>kotlin-maven-plugin</artifactId><version>1.9.24</version>
          <configuration><jvmTarget>17</jvmTarget></configuration>
          <executions><execution><id>compile</id><goals><goal>compile</goal></goals></execution></executions></plugin>'
        dep='<dependency><groupId>org.jetbrains.kotlin</groupId><artifactId>kotlin-stdlib</artifactId><version>1.9.24</version></dependency>'
        src='<sourceDirectory>src/main/kotlin</sourceDirectory>'
    else
        plugin='' dep='' src=''
    fi
    cat > "$dir/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>app</groupId><artifactId>app</artifactId><version>1</version>
  <properties><maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>
  <dependencies>
    <dependency><groupId>io.github.fastwire-fbe</groupId><artifactId>fastwire-runtime</artifactId><version>0.1.0</version></dependency>
    $dep
  </dependencies>
  <build>$src<plugins>
    <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
    <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
    <plugin><artifactId>maven-jar-plugin</artifactId><version>3.4.1</version></plugin>
    <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version></plugin>
    <plugin><artifactId>maven-dependency-plugin</artifactId><version>3.6.1</version></plugin>
    $plugin
  </plugins></build>
</project>
POM
    PYTHONPATH="$root/compiler" python3 -m fastwire compile "$root/schemas/proto.fbe" --lang "$lang" \
        --final --json --proto -q -o "$dir/src/main/$lang"
    if [ "$lang" = kotlin ]; then
        cp "$root/examples/kotlin/Examples.kt" "$dir/src/main/kotlin/app/"
        PYTHONPATH="$root/compiler" python3 -m fastwire compile "$root/schemas/protocol.fbe" --lang kotlin \
            --final --json --proto -q -o "$dir/src/main/kotlin"
        main=examples.AccountExample
    else
        cp "$root/examples/java/AccountExample.java" "$dir/src/main/java/app/"
        main=examples.AccountExample
    fi
    (cd "$dir" && nice -n 5 mvn -q -B -o -T 1 package dependency:build-classpath -Dmdep.outputFile=cp.txt >/dev/null \
        || (cd "$dir" && nice -n 5 mvn -q -B -T 1 package dependency:build-classpath -Dmdep.outputFile=cp.txt))
    out=$(java -cp "$dir/target/classes:$(cat "$dir/cp.txt")" "$main")
    echo "$out" | grep -q '^FBE size: 252$' || { echo "install-check ($lang): $out"; exit 1; }
    echo "$out" | grep -qF "$(cat "$root/tests/vectors/account.json")" || { echo "install-check ($lang): $out"; exit 1; }
done
echo "install-check: a fresh Java and a fresh Kotlin project round-trip the seed account"
