/// Escaping text scalar by scalar, shared by the JSON writer and the review page's HTML.
public enum TextEscaping {
    /// `s` appended to `out` with each scalar in `table` replaced by its entry, and each other
    /// scalar for which `otherwise` answers replaced by that answer.
    public static func append(_ s: String, to out: inout String, replacing table: [Unicode.Scalar: String],
                              otherwise: (Unicode.Scalar) -> String? = { _ in nil }) {
        for scalar in s.unicodeScalars {
            if let replacement = table[scalar] ?? otherwise(scalar) {
                out += replacement
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
}
