using Ingest.Fuzz.Targets;

namespace Ingest.Fuzz;

/// <summary>Every target, by name.</summary>
internal static class FuzzTargets
{
    public static IReadOnlyList<IFuzzTarget> All { get; } =
    [
        new RequestReaderTarget(),
        new MediaTypesTarget(),
        new RelaxedJsonTarget(),
        new EventValidatorTarget(),
        new TimestampsTarget(),
        new ForwardBodyTarget(),
        new HttpResponseParserTarget(),
    ];

    public static IFuzzTarget? Find(string name)
    {
        foreach (var target in All)
        {
            if (string.Equals(target.Name, name, StringComparison.OrdinalIgnoreCase))
            {
                return target;
            }
        }

        return null;
    }
}
