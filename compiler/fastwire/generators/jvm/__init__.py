"""What the Java and the Kotlin generator share: the walks over the codec plan (the general
codec bodies, the straight-line fast paths of serialize, verify and deserialize), the
protocol's content and the names. Each language keeps its syntax only (java/, kotlin/)."""
