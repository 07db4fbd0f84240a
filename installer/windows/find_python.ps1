# Dot-sourced by install.ps1 and uninstall.ps1: Find-Python returns the path of a Python 3.10+ interpreter
# ($env:PYTHON when set, else the py launcher's newest supported version, else python on PATH), or explains.
function Find-Python {
    $candidates = @()
    if ($env:PYTHON) { $candidates += , @($env:PYTHON) }
    else {
        if (Get-Command py -ErrorAction SilentlyContinue) {
            foreach ($v in '3.15', '3.14', '3.13', '3.12', '3.11', '3.10') { $candidates += , @('py', "-$v") }
        }
        $candidates += , @('python')
    }
    foreach ($c in $candidates) {
        $exe = $c[0]
        $pre = @($c | Select-Object -Skip 1)
        try {
            # The Microsoft Store's "python" alias without Python installed exits 9009 here: skipped.
            $found = & $exe @pre -c "import sys; print(sys.executable if (3, 10) <= sys.version_info[:2] else '')" 2>$null
            if ($LASTEXITCODE -eq 0 -and $found) { return ($found | Select-Object -Last 1).Trim() }
        } catch { }
    }
    Write-Host 'YOLO Studio needs Python 3.10 or newer (3.12 recommended), and none was found.' -ForegroundColor Red
    Write-Host 'Install it from python.org: Downloads > Windows > "Windows installer (64-bit)"; in the installer tick'
    Write-Host '"Add python.exe to PATH". Then double-click install.bat again (or set PYTHON=C:\path\to\python.exe).'
    return $null
}
