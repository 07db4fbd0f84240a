<#
Remove YOLO Studio as installed by install.bat: exactly the files it recorded in install.json. Your workspace
(runs, datasets) and settings stay, unless --remove-data (asks first; --yes for scripts).

  uninstall.bat [--prefix DIR] [--remove-data [--yes]]

Runs from the source folder (installer\windows) or from the install folder, where the installer copies it
for the Start menu's "Uninstall YOLO Studio": there it uses the Python the app's venv was made from (the
venv's own python.exe would lock the files being removed) with the app's modules from the venv.
#>
$ErrorActionPreference = 'Stop'
$rest = @($args)
$source = Resolve-Path (Join-Path $PSScriptRoot '..\..') -ErrorAction SilentlyContinue
if ($source -and (Test-Path (Join-Path $source 'installer\__main__.py'))) {
    . (Join-Path $PSScriptRoot 'find_python.ps1')
    $python = Find-Python
    if (-not $python) { exit 1 }
    $env:PYTHONPATH = $source.Path
} else {
    $prefix = $PSScriptRoot
    $cfg = Get-Content (Join-Path $prefix 'venv\pyvenv.cfg') -ErrorAction SilentlyContinue |
        Where-Object { $_ -match '^\s*home\s*=' } | Select-Object -First 1
    if (-not $cfg) { Write-Host "No YOLO Studio install found in $prefix." -ForegroundColor Red; exit 1 }
    $python = Join-Path (($cfg -split '=', 2)[1].Trim()) 'python.exe'
    $env:PYTHONPATH = Join-Path $prefix 'venv\Lib\site-packages'
    $rest = @('--prefix', $prefix) + $rest
}
Set-Location $HOME
& $python -m installer uninstall --os Windows `
    --desktop-dir ([Environment]::GetFolderPath('Desktop')) --programs-dir ([Environment]::GetFolderPath('Programs')) `
    @rest
exit $LASTEXITCODE
