/** Bounds applied to untrusted input (the C++ runtime's defaults, docs/security.md). */
export interface Limits {
  /** Structs nested in each other; the root struct counts as one. */
  readonly maxDepth: number;
  /** The size a root model (or a protocol message) may declare. */
  readonly maxMessageSize: number;
  /** Elements of zero final size (empty structs) in one message, summed. */
  readonly maxZeroSizeElements: number;
}

export const DEFAULT_LIMITS: Limits = Object.freeze({
  maxDepth: 64,
  maxMessageSize: 64 * 1024 * 1024,
  maxZeroSizeElements: 1 << 16,
});

/** The defaults with some values changed. */
export function limits(changes: Partial<Limits> = {}): Limits {
  return Object.freeze({ ...DEFAULT_LIMITS, ...changes });
}
