using System.Net;
using System.Text.RegularExpressions;

namespace Ingest.Testing;

/// <summary>
/// Reads a status page's facts back from its HTML, the same way for every engine (.NET's and Go's): each table row
/// <c>&lt;tr data-fact="name"&gt;&lt;th&gt;…&lt;/th&gt;&lt;td&gt;value&lt;/td&gt;&lt;/tr&gt;</c>, with the value's HTML entities
/// decoded, and the rows of the last-events table.
/// </summary>
public static partial class StatusPageHtml
{
    /// <summary>Every fact row's name and decoded value, in page order.</summary>
    public static Dictionary<string, string> Facts(string html)
    {
        var facts = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (Match row in FactRow().Matches(html))
        {
            facts[WebUtility.HtmlDecode(row.Groups["name"].Value)] = WebUtility.HtmlDecode(row.Groups["value"].Value);
        }

        return facts;
    }

    /// <summary>The view engine the page names.</summary>
    public static string Engine(string html) => WebUtility.HtmlDecode(EngineSpan().Match(html).Groups["engine"].Value);

    /// <summary>The last-events rows, each as its decoded cells (type, source, timestamp, detail).</summary>
    public static List<string[]> Events(string html)
    {
        var rows = new List<string[]>();
        foreach (Match row in EventRow().Matches(html))
        {
            rows.Add([.. Cell().Matches(row.Groups["cells"].Value).Select(static c => WebUtility.HtmlDecode(c.Groups["value"].Value))]);
        }

        return rows;
    }

    [GeneratedRegex("""<tr data-fact="(?<name>[^"]*)"><th>[^<]*</th><td>(?<value>[^<]*)</td></tr>""")]
    private static partial Regex FactRow();

    [GeneratedRegex("""<span data-fact="engine">(?<engine>[^<]*)</span>""")]
    private static partial Regex EngineSpan();

    [GeneratedRegex("""<tr class="event">(?<cells>.*?)</tr>""")]
    private static partial Regex EventRow();

    [GeneratedRegex("""<td>(?<value>[^<]*)</td>""")]
    private static partial Regex Cell();
}
