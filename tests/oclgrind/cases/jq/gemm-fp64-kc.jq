.results[0].kernel | capture("^packed panels: .* KC=(?<kc>[0-9]+)$").kc | tonumber | . < 1100 and 1100 % . != 0
