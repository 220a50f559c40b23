// ES2024's String methods (Node 20 and later have them; the compiler's target library is ES2023).
interface String {
  isWellFormed(): boolean;
  toWellFormed(): string;
}
