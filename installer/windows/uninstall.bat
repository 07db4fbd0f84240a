@echo off
rem Remove YOLO Studio (your runs and settings are kept unless --remove-data). Double-click or run from cmd.
setlocal
powershell.exe -NoProfile -ExecutionPolicy Bypass -File "%~dp0uninstall.ps1" %*
set rc=%ERRORLEVEL%
echo %cmdcmdline% | findstr /i /c:"%~nx0" >nul && pause
exit /b %rc%
