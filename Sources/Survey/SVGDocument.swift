import NDJSON
import PrintableText
import Ranging

/// A small SVG writer: elements appended as text, numbers in fixed point, text escaped for XML.
///
/// Names on the maps come from a catalog, ids from the air: `escape` keeps them text. XML 1.0
/// forbids most control characters even as references, so they (and format characters such as
/// the bidi overrides, which would let a name display reversed) become U+FFFD, and `& < > " '`
/// become entity references.
struct SVGDocument {
    let width: Double
    /// Grows to fit what is drawn (`fit(bottom:)`).
    private(set) var height: Double
    private(set) var body = ""

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    mutating func fit(bottom: Double) {
        height = max(height, bottom)
    }

    mutating func add(_ element: String) {
        body += element
        body += "\n"
    }

    var text: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.number(width))" height="\(Self.number(height))" \
        viewBox="0 0 \(Self.number(width)) \(Self.number(height))" font-family="DejaVu Sans, Verdana, Arial, sans-serif">

        """ + body + "</svg>\n"
    }

    /// A number with at most `decimals` places, trailing zeros trimmed (`12.5`, `-80`).
    static func number(_ value: Double, decimals: Int = 1) -> String {
        guard value.isFinite else { return "0" }
        var writer = JSONWriter(capacity: 32)
        writer.number(value, decimals: decimals)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    static func escape(_ text: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\r", "\n", "\t": out.unicodeScalars.append("\u{FFFD}")
            default:
                out.unicodeScalars.append(PrintableText.isUnsafe(scalar) || scalar.value >= 0xFFFE && scalar.value <= 0xFFFF ? "\u{FFFD}" : scalar)
            }
        }
        return out
    }

    /// `text` cut to `limit` characters with an ellipsis, for labels with little room.
    static func shortened(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(max(1, limit - 1))) + "…"
    }

    /// A text element; `content` is escaped here.
    static func label(
        _ content: String, x: Double, y: Double, size: Double, anchor: String = "start", weight: String? = nil,
        fill: String = "#222", className: String? = nil, halo: Bool = false
    ) -> String {
        var attributes = "x=\"\(number(x))\" y=\"\(number(y))\" font-size=\"\(number(size))\" fill=\"\(fill)\""
        if halo { attributes += " stroke=\"#ffffff\" stroke-width=\"3.5\" stroke-linejoin=\"round\" paint-order=\"stroke\"" }
        if anchor != "start" { attributes += " text-anchor=\"\(anchor)\"" }
        if let weight { attributes += " font-weight=\"\(weight)\"" }
        if let className { attributes += " class=\"\(className)\"" }
        return "<text \(attributes)>\(escape(content))</text>"
    }
}
