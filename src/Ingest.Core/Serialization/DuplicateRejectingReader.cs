using Newtonsoft.Json;

namespace Ingest.Core.Serialization;

/// <summary>
/// A Newtonsoft.Json reader that refuses an object naming the same member twice. Newtonsoft keeps the last value
/// silently; System.Text.Json is told to refuse (AllowDuplicateProperties = false), so `{"type":"job","type":"log"}`
/// is a 400 whatever the serializer rather than whichever value a library happens to keep.
/// </summary>
internal sealed class DuplicateRejectingReader(TextReader reader) : JsonTextReader(reader)
{
    private readonly Stack<HashSet<string>> _objects = new();

    public override bool Read()
    {
        if (!base.Read())
        {
            return false;
        }

        switch (TokenType)
        {
            case JsonToken.StartObject:
                _objects.Push(new HashSet<string>(StringComparer.Ordinal));
                break;
            case JsonToken.EndObject:
                _objects.Pop();
                break;
            case JsonToken.PropertyName when _objects.Count > 0 && !_objects.Peek().Add((string)Value!):
                throw new StrictConverters.WrongTypeException($"repeats the member '{Value}'", Path);
        }

        return true;
    }
}
