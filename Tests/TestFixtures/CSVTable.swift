/// Reads RFC 4180 CSV into rows of cells, independently of the writers under test: what a
/// spreadsheet would see. Quoted cells may hold commas, doubled quotes and line breaks; rows end
/// with CR LF, LF or CR. Works on Unicode scalars, so a CR LF pair is two scalars, as in the file.
public enum CSVTable {
    public static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], cell = ""
        var quoted = false
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if quoted {
                if scalar != "\"" {
                    cell.unicodeScalars.append(scalar)
                } else if index < scalars.count, scalars[index] == "\"" {
                    cell.unicodeScalars.append("\"")
                    index += 1
                } else {
                    quoted = false
                }
            } else if scalar == "\"" {
                quoted = true
            } else if scalar == "," {
                row.append(cell)
                cell = ""
            } else if scalar == "\r" || scalar == "\n" {
                if scalar == "\r", index < scalars.count, scalars[index] == "\n" { index += 1 }
                row.append(cell)
                rows.append(row)
                row = []
                cell = ""
            } else {
                cell.unicodeScalars.append(scalar)
            }
        }
        if !cell.isEmpty || !row.isEmpty {
            row.append(cell)
            rows.append(row)
        }
        return rows
    }
}
