namespace Ingest.Pgo.Tests;

/// <summary>The tool's command line: generated help, and a misspelled option refused with the right one suggested.</summary>
public sealed class PgoCommandLineTests
{
    [Fact]
    public void TheHelpListsEveryOptionAndTheLayoutCommand()
    {
        using var output = new StringWriter();

        Assert.Equal(0, PgoCommand.Run(["--help"], output, ""));

        foreach (var option in new[] { "<profile>", "--out", "--assemblies", "--verbose", "layout" })
        {
            Assert.Contains(option, output.ToString(), StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData(new[] { "profile.txt", "--ot", "x.mibc" }, "--ot", "--out")]
    [InlineData(new[] { "layout", "trace.txt", "--progam", "p", "--out", "x.order" }, "--progam", "--program")]
    [InlineData(new[] { "profile.txt", "--out", "x.mibc", "--verbos" }, "--verbos", "--verbose")]
    public void AMisspelledOptionFailsWithTwoAndSuggestsTheRightOne(string[] args, string typo, string meant)
    {
        using var output = new StringWriter();

        Assert.Equal(PgoCommand.UsageError, PgoCommand.Run(args, output, ""));

        var text = output.ToString();
        Assert.Contains($"'{typo}'", text, StringComparison.Ordinal);
        Assert.Contains(meant, text, StringComparison.Ordinal);
    }

    [Fact]
    public void AConversionWithoutItsOutputIsRefused()
    {
        using var output = new StringWriter();

        Assert.Equal(PgoCommand.UsageError, PgoCommand.Run(["profile.txt"], output, ""));
        Assert.Contains("--out", output.ToString(), StringComparison.Ordinal);
    }
}
