; Inno Setup script: a per-user installer for the PyInstaller onedir bundle (build\dist\sensetree).
; Why per-user: no administrator prompt, and the data dir, autostart Run key and uninstall entry all
; live under the same user. Installs to %LOCALAPPDATA%\Programs\SenseTree, adds a Start-menu entry
; (and an optional desktop icon), registers an uninstaller, and removes the autostart Run value on
; uninstall. The person's data (%LOCALAPPDATA%\SenseTree) is left alone.
; Build (after PyInstaller, from the repository root):
;   iscc /DAppVersion=0.1.0 build\windows\sensetree.iss     -> build\dist\SenseTree-Setup-0.1.0.exe

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif

[Setup]
AppId={{6B0E3B52-5C1E-4D8B-9E55-2F3A2A7C5E11}
AppName=SenseTree
AppVersion={#AppVersion}
AppPublisher=SenseTree
DefaultDirName={localappdata}\Programs\SenseTree
DefaultGroupName=SenseTree
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir=..\dist
OutputBaseFilename=SenseTree-Setup-{#AppVersion}
SetupIconFile=..\icons\sensetree.ico
UninstallDisplayIcon={app}\sensetree.exe
Compression=lzma2/normal
SolidCompression=yes
WizardStyle=modern
CloseApplications=yes

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "..\dist\sensetree\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{group}\SenseTree"; Filename: "{app}\sensetree.exe"
Name: "{group}\Uninstall SenseTree"; Filename: "{uninstallexe}"
Name: "{userdesktop}\SenseTree"; Filename: "{app}\sensetree.exe"; Tasks: desktopicon

[Run]
Filename: "{app}\sensetree.exe"; Description: "{cm:LaunchProgram,SenseTree}"; Flags: nowait postinstall skipifsilent

[Registry]
; engine/autostart.py writes this value when the person turns on "Start at login"; remove it with the app.
Root: HKCU; Subkey: "Software\Microsoft\Windows\CurrentVersion\Run"; ValueType: none; ValueName: "SenseTree"; Flags: uninsdeletevalue dontcreatekey
